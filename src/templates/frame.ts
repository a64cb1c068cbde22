/**
 * Code frames for diagnostics of the files a templates folder holds (its
 * templates, YAML and JSON): the build step and the preview show the line
 * a problem is on, read from the file when the diagnostic carries none.
 */
import { existsSync, readFileSync } from "node:fs";
import { codeFrame, type Diagnostic } from "../errors.js";

/** A located diagnostic with no frame gets one from its file, when it can be read. */
export function withFrame(d: Diagnostic): Diagnostic {
	if (d.frame !== undefined || d.file === undefined || d.line === undefined || !existsSync(d.file))
		return d;
	if (!d.file.endsWith(".hbs") && !d.file.endsWith(".yaml") && !d.file.endsWith(".json")) return d;
	const frame = codeFrame(readFileSync(d.file, "utf8"), d.line, d.column);
	return frame === undefined ? d : { ...d, frame };
}

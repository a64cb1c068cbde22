/**
 * The command line's one voice on stderr. A diagnostic is one line:
 *
 *     theway-context: FILE:LINE:COL: error: MESSAGE
 *
 * the program's name, the location where there is one, the severity, the
 * message; a code frame, a usage synopsis or a stack may follow it,
 * indented or quoted. Every command writes its errors and warnings through
 * here, so they read alike and a program can pick them out. What is not a
 * diagnostic (a progress count, a closing summary, a note such as eval's
 * seed) leads with the command's own name instead (`import: …`), and never
 * with a severity word. Control characters in paths and messages are
 * escaped.
 */
import { type ContextError, formatLocation, type Location } from "../errors.js";
import { escapeControl } from "../text/terminal.js";
import type { Io } from "./io.js";

/** The name every diagnostic starts with. */
export const PROGRAM = "theway-context";

/** What a diagnostic line is made of ({@link Diagnostic} is one). */
export interface Said extends Location {
	severity: "error" | "warning";
	message: string;
	/** The offending source lines with a caret, printed under the line. */
	frame?: string;
}

/** `theway-context: file:line:col: severity: message`, its frame under it, escaped, with a newline. */
export function diagnosticText(d: Said): string {
	const where = formatLocation(d);
	const head = `${PROGRAM}: ${where === "" ? "" : `${where}: `}${d.severity}: ${d.message}`;
	return `${escapeControl(d.frame === undefined ? head : `${head}\n${d.frame}`)}\n`;
}

/** A diagnostic on stderr. */
export function printDiagnostic(io: Io, d: Said): void {
	io.stderr(diagnosticText(d));
}

/** A loaded session's warnings on stderr, unless `--quiet`. */
export function printWarnings(io: Io, diagnostics: readonly Said[], quiet?: boolean): void {
	if (quiet !== true) for (const d of diagnostics) printDiagnostic(io, d);
}

/** A warning with no location (`theway-context: warning: …`). */
export function warn(io: Io, message: string): void {
	printDiagnostic(io, { severity: "warning", message });
}

/** The error a run stopped on: each finding it collected, or itself. */
export function errorText(error: ContextError): string {
	const all = error.diagnostics.length === 0 ? [error.toDiagnostic()] : error.diagnostics;
	return all.map(diagnosticText).join("");
}

/** Wrong usage: its line, then the synopsis of the command misused. */
export function usageText(error: ContextError, synopsis: string): string {
	return `${diagnosticText(error.toDiagnostic())}${synopsis}`;
}

/** A bug: one line that says so, then the stack. */
export function bugText(error: unknown): string {
	const stack = error instanceof Error ? (error.stack ?? String(error)) : String(error);
	return `${PROGRAM}: error: internal error (a bug, please report it)\n${stack}\n`;
}

/** The sessions a corpus command could not do, each as an error ({@link sessionFailure}). */
export function printFailures(
	io: Io,
	results: readonly { file: string; error?: string | undefined }[],
): void {
	for (const r of results)
		if (r.error !== undefined) printDiagnostic(io, sessionFailure(r.file, r.error));
}

/**
 * A session a corpus command could not do, as a diagnostic: its `error` is
 * the message of the error it failed with (`file:line:col: reason` when it
 * is located in the session's own file, as {@link formatLocated} writes
 * it), taken back apart; an error located elsewhere, or nowhere, is
 * located at the session's file, its message whole.
 */
export function sessionFailure(file: string, error: string): Said {
	const rest = error.startsWith(`${file}:`) ? error.slice(file.length) : undefined;
	const located = rest === undefined ? null : /^:(\d+)(?::(\d+))?: (.*)$/s.exec(rest);
	if (located === null) {
		const message = rest?.startsWith(": ") ? rest.slice(2) : error;
		return { severity: "error", file, message };
	}
	const [, line, column, message] = located;
	return {
		severity: "error",
		file,
		line: Number(line),
		...(column === undefined ? {} : { column: Number(column) }),
		message: message as string,
	};
}

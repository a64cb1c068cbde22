/**
 * The importers as the log reader's foreign reader: a file whose first line
 * is not our header is tried as a Claude Code or Codex session, converted in
 * memory with the same warnings `theway-context import` gives. A file of no
 * known format gives undefined, and the reader reports its missing header.
 * The reader gets the converted entries as values: no log text is written.
 */
import { ContextError } from "../errors.js";
import type { ForeignReader } from "../log/open-log.js";
import { importSession } from "./convert.js";

export const readForeign: ForeignReader = (bytes, name) => {
	try {
		const buffer = Buffer.isBuffer(bytes)
			? bytes
			: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		const result = importSession(buffer, name);
		if (result.format === "theway" || result.values === undefined) return undefined;
		const { header, entries } = result.values();
		return {
			header,
			entries,
			sourceLines: result.sourceLines,
			warnings: result.warnings,
			...(result.calls === undefined ? {} : { calls: result.calls }),
		};
	} catch (error) {
		if (error instanceof ContextError && error.code === "unknown_format") return undefined;
		throw error;
	}
};

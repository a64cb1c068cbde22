/**
 * A source file's bytes to records: one JSON value per line, each with its
 * line number. Pure (bytes in, records out). A line that is not JSON, or one
 * longer than the limit (never decoded, however long), is skipped with a
 * located warning and counted, so a damaged file still imports what it can.
 */
import { isUtf8 } from "node:buffer";
import { locateJsonError } from "../log/json-error.js";
import type { Accounting, SourceRecord } from "./accounting.js";

/** A line longer than this is skipped unread (default 64 MiB, as the log reader's). */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** The record type a skipped line is counted under. */
export const BAD_LINE = "(bad line)";

/**
 * The parsed records of `bytes`, one at a time (so that a converter's
 * garbage dies young); bad lines go to `accounting` as warnings.
 */
export function* recordsOf(
	bytes: Buffer,
	accounting: Accounting,
	maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): Generator<SourceRecord> {
	let start = 0;
	let line = 0;
	// Checked once for the file, each line only when the file is not.
	const wholeUtf8 = isUtf8(bytes);
	while (start < bytes.length) {
		let end = bytes.indexOf(0x0a, start);
		if (end < 0) end = bytes.length;
		line++;
		const length = end - start;
		if (length > maxRecordBytes) {
			accounting.warned(
				BAD_LINE,
				line,
				`skipped: a line of ${length} bytes, over the ${maxRecordBytes}-byte limit`,
				"line_too_long",
			);
		} else if (!isBlank(bytes, start, end)) {
			let text = bytes.toString("utf8", start, end);
			if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
			// A byte-order mark alone on its line: a blank line.
			if (text.trim() === "") {
				start = end + 1;
				continue;
			}
			if (!wholeUtf8 && !isUtf8(bytes.subarray(start, end))) {
				accounting.warn(
					line,
					"the line is not valid UTF-8: each byte sequence that is not reads as U+FFFD",
				);
			}
			const value = parse(text);
			if (value === undefined) {
				const torn = end === bytes.length;
				const error = locateJsonError(text);
				accounting.warned(
					BAD_LINE,
					line,
					torn
						? "skipped: the last line is cut short (not valid JSON)"
						: `skipped: not valid JSON: ${error.reason}`,
					torn ? "torn_line" : "bad_json",
					torn ? undefined : error.column,
				);
			} else yield { value, line, text: text.trim() };
		}
		start = end + 1;
	}
}

function parse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
	for (let i = start; i < end; i++) {
		const c = bytes[i];
		if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
	}
	return true;
}

/**
 * A recorded token count: a finite number, zero or more. Anything else (a
 * negative count, `1e999`, a string) counts no token, and `bad` hears of it.
 */
export function tokenCount(value: unknown, bad?: (value: unknown) => void): number {
	if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
	if (value !== undefined && value !== null) bad?.(value);
	return 0;
}

/** What a usage field that is no token count is told as. */
export function badCount(field: string, value: unknown): string {
	const shown =
		typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
	return `the usage's ${field} is ${shown}, no token count: counted as 0`;
}

/** A plain object, as the converters read records. */
export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when it is a string. */
export function str(value: Obj, key: string): string | undefined {
	const v = value[key];
	return typeof v === "string" ? v : undefined;
}

/** `value[key]` when it is an object. */
export function obj(value: Obj, key: string): Obj | undefined {
	const v = value[key];
	return isObj(v) ? v : undefined;
}

/**
 * Whether a huge log seems to hold a compaction near its end: only a hint
 * for how much of it to keep in memory (a wrong answer costs time or memory,
 * never correctness). It looks for a `"type"` key whose value is
 * `"compaction"`, whatever the spacing around the colon and the key order.
 */
import { readSync } from "node:fs";
import { ioError, type Source } from "./read.js";

const CHUNK_BYTES = 4 * 1024 * 1024;
const VALUE = Buffer.from('"compaction"');
const KEY = Buffer.from('"type"');
/** Chunks overlap by this much, so a tag cut in two is still seen (whitespace included). */
const OVERLAP = 256;

/** Whether `bytes` holds `"type"` `:` `"compaction"`, with any whitespace around the colon. */
export function holdsCompactionTag(bytes: Buffer): boolean {
	for (let at = bytes.indexOf(VALUE); at !== -1; at = bytes.indexOf(VALUE, at + 1)) {
		let i = at - 1;
		while (i >= 0 && isSpace(bytes[i] as number)) i--;
		if (i < 0 || bytes[i] !== 0x3a) continue;
		i--;
		while (i >= 0 && isSpace(bytes[i] as number)) i--;
		const start = i - KEY.length + 1;
		if (start >= 0 && bytes.subarray(start, i + 1).equals(KEY)) return true;
	}
	return false;
}

function isSpace(c: number): boolean {
	return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Scans the last quarter (at least 64 MiB) of a regular file, backwards, for a compaction. */
export function seemsCompacted(source: Source): boolean {
	const size = source.stat.size;
	const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
	// A compaction before that leaves most of the log in context anyway.
	const stop = Math.max(0, size - Math.max(size / 4, 64 * 1024 * 1024));
	for (let end = size; end > stop; ) {
		const start = Math.max(0, end - buffer.length);
		let n: number;
		try {
			n = readSync(source.fd, buffer, 0, end - start, start);
		} catch (error) {
			throw ioError(source.name, error);
		}
		if (holdsCompactionTag(buffer.subarray(0, n))) return true;
		end = start <= stop ? stop : start + OVERLAP;
	}
	return false;
}

/**
 * Lines from a byte stream, with a bound: a line longer than `maxBytes` is
 * never held whole. Its first bytes are dropped as soon as it outgrows the
 * bound, the rest is skipped up to its newline, and the caller gets a
 * {@link TooLong} in its place. So a 10 MB request costs no more memory than
 * a request at the limit, and the lines after it are read as usual.
 */

/** The longest request line read (longer ones get an error reply, unread). */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** Stands for a line that was over the limit (its length, in bytes, as far as known). */
export interface TooLong {
	tooLong: number;
}

const NEWLINE = 0x0a;

/** Splits `input` into lines (without their newline; a final unterminated line counts). */
export async function* boundedLines(
	input: AsyncIterable<Buffer | string>,
	maxBytes: number,
): AsyncGenerator<Buffer | TooLong> {
	let parts: Buffer[] = [];
	let held = 0;
	/** Bytes of the current line that were dropped: it is over the limit. */
	let dropped = 0;
	for await (const data of input) {
		const chunk = typeof data === "string" ? Buffer.from(data) : data;
		let start = 0;
		while (start < chunk.length) {
			const end = chunk.indexOf(NEWLINE, start);
			const stop = end === -1 ? chunk.length : end;
			if (dropped === 0 && held + (stop - start) <= maxBytes) {
				if (stop > start) parts.push(chunk.subarray(start, stop));
				held += stop - start;
			} else {
				dropped += held + (stop - start);
				parts = [];
				held = 0;
			}
			if (end === -1) break;
			if (dropped > 0) yield { tooLong: dropped };
			else yield parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
			parts = [];
			held = 0;
			dropped = 0;
			start = end + 1;
		}
	}
	if (dropped > 0) yield { tooLong: dropped };
	else if (held > 0) yield Buffer.concat(parts, held);
}

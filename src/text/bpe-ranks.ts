/**
 * The ranks of a byte-pair encoding as the counter (./bpe.ts) searches them:
 * the tokens' bytes back to back in rank order, and an open-addressing hash
 * table of ranks over them, parsed from a `.tiktoken` file (one base64 token
 * and its rank a line) or read whole from a table file (./bpe-table.ts);
 * and the hash and UTF-8 checks both the table and the counter use.
 */

/** The ranks of one encoding: token bytes back to back in rank order, and a hash table of ranks. */
export interface Ranks {
	/** The token of rank `r` is `bytes[ends[r]..ends[r + 1])` (empty where no token has rank `r`). */
	bytes: Uint8Array;
	ends: Uint32Array;
	/**
	 * Per slot, rank + 1 in the low {@link RANK_BITS} bits and the top bits of
	 * the token's hash above them (a probe that meets another token's slot
	 * mostly tells by these, without reading the token); 0 is empty.
	 */
	slots: Int32Array;
	mask: number;
}

/** The bits of a slot that hold rank + 1: ranks up to 2^20 - 2. */
export const RANK_BITS = 20;
/** A slot's rank + 1. */
export const RANK_MASK = (1 << RANK_BITS) - 1;

const BASE64 = new Int8Array(128).fill(-1);
for (const [i, ch] of [
	..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
].entries())
	BASE64[ch.charCodeAt(0)] = i;

/**
 * The ranks of a `.tiktoken` file's contents, and the hash table over them.
 * Ranks go up line by line in the files `gpt-tokenizer` ships (a rank left
 * out has no token); a file whose ranks go down is refused.
 */
export function parseTiktoken(text: Uint8Array): Ranks {
	let lines = 0;
	for (let i = 0; i < text.length; i++) if (text[i] === 10) lines++;
	const bytes = new Uint8Array(text.length);
	let ends = new Uint32Array(lines + 2);
	let at = 0;
	/** The next rank: every rank below it is placed. */
	let next = 0;
	for (let i = 0, line = 1; i < text.length; line++) {
		const start = at;
		let acc = 0;
		let bits = 0;
		for (; i < text.length && text[i] !== 32; i++) {
			const v = BASE64[text[i] as number] ?? -1;
			if (v < 0) continue; // padding
			acc = ((acc << 6) | v) & 0xffffff;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				bytes[at++] = (acc >> bits) & 255;
			}
		}
		let rank = 0;
		for (i++; i < text.length && text[i] !== 10; i++) rank = rank * 10 + (text[i] as number) - 48;
		i++;
		if (at === start) continue;
		if (rank < next)
			throw new Error(`ranks file, line ${line}: rank ${rank} after rank ${next - 1}`);
		if (rank + 2 > ends.length) {
			const longer = new Uint32Array(Math.max(rank + 2, 2 * ends.length));
			longer.set(ends);
			ends = longer;
		}
		ends.fill(start, next + 1, rank + 1);
		ends[rank + 1] = at;
		next = rank + 1;
	}
	if (next > RANK_MASK - 1) throw new Error(`ranks file: ${next} ranks, more than a table holds`);
	// Three quarters full at most: a probe past another token's slot reads its hash's top bits alone.
	let size = 1;
	while (size < next * 1.25) size <<= 1;
	const slots = new Int32Array(size);
	const mask = size - 1;
	for (let r = 0; r < next; r++) {
		const s = ends[r] as number;
		const e = ends[r + 1] as number;
		if (s === e) continue;
		// Valid UTF-8 after a byte-order mark: never found by gpt-tokenizer, which strips the mark.
		if (startsWithBom(bytes, s, e) && isUtf8(bytes, s, e)) continue;
		const h = hashBytes(bytes, s, e);
		let slot = h & mask;
		while (slots[slot] !== 0) slot = (slot + 1) & mask;
		slots[slot] = ((h >>> RANK_BITS) << RANK_BITS) | (r + 1);
	}
	return { bytes: bytes.subarray(0, at), ends: ends.subarray(0, next + 1), slots, mask };
}

/** FNV-1a of `b[s..e)`: the table's hash. */
export function hashBytes(b: Uint8Array, s: number, e: number): number {
	let h = 0x811c9dc5;
	for (let i = s; i < e; i++) h = Math.imul(h ^ (b[i] as number), 0x01000193);
	return h >>> 0;
}

/** Whether `b[s..e)` starts with a byte-order mark. */
export function startsWithBom(b: Uint8Array, s: number, e: number): boolean {
	return (
		e - s >= 3 &&
		(((b[s] as number) << 16) | ((b[s + 1] as number) << 8) | (b[s + 2] as number)) === 0xefbbbf
	);
}

/** Whether `b[s..e)` is valid UTF-8, as gpt-tokenizer checks it. */
export function isUtf8(b: Uint8Array, s: number, e: number): boolean {
	let i = s;
	while (i < e) {
		const b1 = b[i] as number;
		let size: number;
		let cp: number;
		if (b1 <= 127) {
			i++;
			continue;
		}
		if ((b1 & 224) === 192) {
			if (b1 <= 193) return false;
			size = 2;
			cp = b1 & 31;
		} else if ((b1 & 240) === 224) {
			size = 3;
			cp = b1 & 15;
		} else if ((b1 & 248) === 240) {
			if (b1 > 244) return false;
			size = 4;
			cp = b1 & 7;
		} else return false;
		if (i + size > e) return false;
		for (let j = 1; j < size; j++) {
			const c = b[i + j] as number;
			if ((c & 192) !== 128) return false;
			cp = (cp << 6) | (c & 63);
		}
		if ((size === 3 && cp < 2048) || (size === 4 && cp < 65536)) return false;
		if ((cp >= 55296 && cp <= 57343) || cp > 1114111) return false;
		i += size;
	}
	return true;
}

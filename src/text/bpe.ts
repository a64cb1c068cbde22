/**
 * Counting tokens of OpenAI's byte-pair encodings (o200k_base, cl100k_base)
 * from the ranks file `gpt-tokenizer` ships (`data/NAME.tiktoken`, one
 * base64 token and its rank a line), with the pre-tokenizer expressions of
 * `gpt-tokenizer`. Counts equal `gpt-tokenizer`'s `countTokens` (special
 * tokens as plain text) on every text: the merge is the same (the
 * lowest-ranked pair first, the leftmost of equals), and so is each lookup,
 * quirks included (a byte sequence that is valid UTF-8 and starts with a
 * byte-order mark is looked up without it, as `gpt-tokenizer` decodes it).
 *
 * Why not `gpt-tokenizer`'s own counter: loading its tables (a 2.4 MB
 * module of 200k strings, then a map of them) costs more than counting a
 * session; here the ranks are one byte array and an open-addressing hash
 * table over it, built in one pass, and pieces are looked up from the
 * text's own characters, ASCII pieces without a string made.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ABORT, o200kPieceEnd } from "./pretokenize.js";

const require = createRequire(import.meta.url);
const NONE = 0x7fffffff;
const BASE64 = new Int8Array(128).fill(-1);
for (const [i, ch] of [
	..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
].entries())
	BASE64[ch.charCodeAt(0)] = i;

/** The encodings counted here. */
export type BpeName = "o200k" | "cl100k";

const FILES: Record<BpeName, string> = {
	o200k: "gpt-tokenizer/data/o200k_base.tiktoken",
	cl100k: "gpt-tokenizer/data/cl100k_base.tiktoken",
};

/** The ranks of one encoding: token bytes back to back, and a hash table of entry indexes. */
interface Ranks {
	bytes: Uint8Array;
	starts: Uint32Array;
	lengths: Uint16Array;
	ranks: Uint32Array;
	/** Entry index + 1 per slot; 0 is empty. */
	slots: Int32Array;
	mask: number;
}

/** A counter of `name`'s tokens in a text. */
export function bpeCounter(name: BpeName): (text: string) => number {
	const constants = require("gpt-tokenizer/cjs/encodingParams/constants") as Record<string, RegExp>;
	const pattern = (
		name === "o200k" ? constants.O200K_TOKEN_SPLIT_REGEX : constants.CL100K_TOKEN_SPLIT_REGEX
	) as RegExp;
	return new BpeCounter(readRanks(require.resolve(FILES[name])), pattern, name === "o200k").count;
}

/** Reads a `.tiktoken` file into {@link Ranks}. */
function readRanks(file: string): Ranks {
	const text = readFileSync(file);
	let lines = 0;
	for (let i = 0; i < text.length; i++) if (text[i] === 10) lines++;
	if (text.length > 0 && text[text.length - 1] !== 10) lines++;
	const bytes = new Uint8Array(text.length);
	const starts = new Uint32Array(lines);
	const lengths = new Uint16Array(lines);
	const ranks = new Uint32Array(lines);
	let at = 0;
	let count = 0;
	for (let i = 0; i < text.length; ) {
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
		starts[count] = start;
		lengths[count] = at - start;
		ranks[count] = rank;
		count++;
	}
	let size = 1;
	while (size < count * 2.5) size <<= 1;
	const slots = new Int32Array(size);
	const mask = size - 1;
	for (let e = 0; e < count; e++) {
		const s = starts[e] as number;
		const l = lengths[e] as number;
		// Valid UTF-8 after a byte-order mark: never found by gpt-tokenizer, which strips the mark.
		if (startsWithBom(bytes, s, s + l) && isUtf8(bytes, s, s + l)) continue;
		let h = hashBytes(bytes, s, s + l) & mask;
		while (slots[h] !== 0) h = (h + 1) & mask;
		slots[h] = e + 1;
	}
	return { bytes, starts, lengths, ranks, slots, mask };
}

function hashBytes(b: Uint8Array, s: number, e: number): number {
	let h = 0x811c9dc5;
	for (let i = s; i < e; i++) h = Math.imul(h ^ (b[i] as number), 0x01000193);
	return h >>> 0;
}

function startsWithBom(b: Uint8Array, s: number, e: number): boolean {
	return e - s >= 3 && b[s] === 0xef && b[s + 1] === 0xbb && b[s + 2] === 0xbf;
}

/** Whether `b[s..e)` is valid UTF-8, as gpt-tokenizer checks it. */
function isUtf8(b: Uint8Array, s: number, e: number): boolean {
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

/** A lone surrogate: a JS string holding one equals no token (gpt-tokenizer looks pieces up as strings). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CACHE_SIZE = 100_000;

class BpeCounter {
	private readonly sticky: RegExp;
	private readonly global: RegExp;
	private buffer = new Uint8Array(1024);
	private readonly encoder = new TextEncoder();
	/** Counts of pieces that are no token (merged), by piece. */
	private readonly merged = new Map<string, number>();

	constructor(
		private readonly table: Ranks,
		pattern: RegExp,
		private readonly asciiScan: boolean,
	) {
		this.sticky = new RegExp(pattern.source, "uy");
		this.global = new RegExp(pattern.source, "gu");
	}

	readonly count = (text: string): number => {
		if (!this.asciiScan) {
			let total = 0;
			for (const [piece] of text.matchAll(this.global)) total += this.piece(piece);
			return total;
		}
		let total = 0;
		const n = text.length;
		for (let i = 0; i < n; ) {
			const end = text.charCodeAt(i) < 128 ? o200kPieceEnd(text, i) : ABORT;
			if (end === ABORT) {
				this.sticky.lastIndex = i;
				const piece = (this.sticky.exec(text) as RegExpExecArray)[0];
				total += this.piece(piece);
				i += piece.length;
			} else {
				total += this.asciiPiece(text, i, end);
				i = end;
			}
		}
		return total;
	};

	/** Tokens of the ASCII piece `text[s..e)`: one when it is a token, else merged. */
	private asciiPiece(text: string, s: number, e: number): number {
		if (e - s === 1) return 1;
		const t = this.table;
		let h = 0x811c9dc5;
		for (let i = s; i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
		const length = e - s;
		for (let slot = (h >>> 0) & t.mask; ; slot = (slot + 1) & t.mask) {
			const entry = (t.slots[slot] as number) - 1;
			if (entry < 0) break;
			if (t.lengths[entry] !== length) continue;
			const o = t.starts[entry] as number;
			let k = 0;
			while (k < length && t.bytes[o + k] === text.charCodeAt(s + k)) k++;
			if (k === length) return 1;
		}
		return this.mergedCount(text.slice(s, e), false);
	}

	/** Tokens of any piece: one when it is a token (looked up as the string it is), else merged. */
	private piece(piece: string): number {
		return this.mergedCount(piece, true);
	}

	private mergedCount(piece: string, lookWhole: boolean): number {
		const known = this.merged.get(piece);
		if (known !== undefined) return known;
		if (this.buffer.length < piece.length * 3) this.buffer = new Uint8Array(piece.length * 3 + 64);
		const length = this.encoder.encodeInto(piece, this.buffer).written;
		let n: number;
		if (lookWhole && !LONE_SURROGATE.test(piece) && this.rawRank(this.buffer, 0, length) !== NONE)
			n = 1;
		else if (piece.length === 1 && piece.charCodeAt(0) < 128) n = 1;
		else n = this.merge(this.buffer, length);
		if (this.merged.size >= CACHE_SIZE) this.merged.clear();
		this.merged.set(piece, n);
		return n;
	}

	/** Byte-pair merge of `b[0..length)`: the number of tokens it ends in. */
	private merge(b: Uint8Array, length: number): number {
		const starts: number[] = [];
		const ranks: number[] = [];
		for (let i = 0; i <= length; i++) {
			starts.push(i);
			ranks.push(i < length - 1 ? this.rank(b, i, i + 2) : NONE);
		}
		while (starts.length > 1) {
			let lowest = NONE;
			let at = -1;
			for (let i = 0; i < ranks.length - 1; i++) {
				const r = ranks[i] as number;
				if (r < lowest) {
					lowest = r;
					at = i;
				}
			}
			if (at === -1) break;
			starts.splice(at + 1, 1);
			ranks.splice(at, 1);
			ranks[at] =
				at + 2 < starts.length
					? this.rank(b, starts[at] as number, starts[at + 2] as number)
					: NONE;
			if (at > 0)
				ranks[at - 1] =
					at + 1 < starts.length
						? this.rank(b, starts[at - 1] as number, starts[at + 1] as number)
						: NONE;
		}
		return starts.length - 1;
	}

	/** A byte sequence's rank as gpt-tokenizer finds it (a leading byte-order mark of valid UTF-8 dropped). */
	private rank(b: Uint8Array, s: number, e: number): number {
		if (startsWithBom(b, s, e) && isUtf8(b, s, e))
			return e - s === 3 ? NONE : this.rawRank(b, s + 3, e);
		return this.rawRank(b, s, e);
	}

	private rawRank(b: Uint8Array, s: number, e: number): number {
		const t = this.table;
		const length = e - s;
		for (let slot = hashBytes(b, s, e) & t.mask; ; slot = (slot + 1) & t.mask) {
			const entry = (t.slots[slot] as number) - 1;
			if (entry < 0) return NONE;
			if (t.lengths[entry] !== length) continue;
			const o = t.starts[entry] as number;
			let k = 0;
			while (k < length && t.bytes[o + k] === b[s + k]) k++;
			if (k === length) return t.ranks[entry] as number;
		}
	}
}

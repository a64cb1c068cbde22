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
 * table over it (./bpe-ranks.ts), read whole from the table file the build
 * writes (./bpe-table.ts) or else built from the ranks file in one pass;
 * pieces are looked up from the text's own characters, ASCII pieces without
 * a string made, and the merge works in arrays reused from piece to piece.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { AsciiCounts } from "./bpe-cache.js";
import {
	hashBytes,
	isUtf8,
	parseTiktoken,
	RANK_BITS,
	RANK_MASK,
	type Ranks,
	startsWithBom,
} from "./bpe-ranks.js";
import { type RanksSource, readRanksTable } from "./bpe-table.js";
import { ABORT, o200kPieceEnd } from "./pretokenize.js";

const require = createRequire(import.meta.url);
const NONE = 0x7fffffff;

/** The encodings counted here. */
export type BpeName = "o200k" | "cl100k";

/** Each encoding's ranks file in `gpt-tokenizer`, and its table file (written by `npm run build`). */
const FILES: Record<BpeName, { source: string; table: string }> = {
	o200k: { source: "gpt-tokenizer/data/o200k_base.tiktoken", table: "o200k_base.bin" },
	cl100k: { source: "gpt-tokenizer/data/cl100k_base.tiktoken", table: "cl100k_base.bin" },
};

/**
 * The folder of the table files: `dist/tokenizer/` of this package, from
 * `src/text/` (tests), `dist/text/` and the bundles of `dist/cli/` alike.
 */
const TABLES = new URL("../../dist/tokenizer/", import.meta.url);

/** The `.tiktoken` file of `name` (and its package's version), and the table file built from it. */
export function bpeFiles(name: BpeName): { source: RanksSource; table: string } {
	const { version } = require("gpt-tokenizer/package.json") as { version: string };
	return {
		source: { file: require.resolve(FILES[name].source), version },
		table: fileURLToPath(new URL(FILES[name].table, TABLES)),
	};
}

/**
 * A counter of `name`'s tokens in a text, over the ranks of its table file
 * (`table`, by default the built one) when that is sound and current, else
 * parsed from `gpt-tokenizer`'s ranks file.
 */
export function bpeCounter(name: BpeName, table?: string): (text: string) => number {
	const constants = require("gpt-tokenizer/cjs/encodingParams/constants") as Record<string, RegExp>;
	const pattern = (
		name === "o200k" ? constants.O200K_TOKEN_SPLIT_REGEX : constants.CL100K_TOKEN_SPLIT_REGEX
	) as RegExp;
	const files = bpeFiles(name);
	const ranks =
		readRanksTable(table ?? files.table, files.source) ??
		parseTiktoken(readFileSync(files.source.file));
	return new BpeCounter(ranks, pattern, name === "o200k").count;
}

/** A lone surrogate: a JS string holding one equals no token (gpt-tokenizer looks pieces up as strings). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CACHE_SIZE = 100_000;
/**
 * The merge's arrays hold a piece of this many bytes without growing: any
 * piece of a text counted in pieces of 4,096 characters (./tokenizer.ts),
 * so the growing is no path the optimized merge meets only later.
 */
const SCRATCH = 3 * 4096 + 2;

class BpeCounter {
	/** The pre-tokenizer's expression, with the flags `gpt-tokenizer` gives it (so V8 compiles it once). */
	private readonly pattern: RegExp;
	private buffer = new Uint8Array(1024);
	private readonly encoder = new TextEncoder();
	/** The merge's parts: where each starts, and the rank of each with the next. */
	private starts = new Int32Array(SCRATCH);
	private pairRanks = new Int32Array(SCRATCH);
	/** Counts of pieces that are no token (merged): ASCII ones by their characters, others by piece. */
	private readonly ascii = new AsciiCounts();
	private readonly merged = new Map<string, number>();

	constructor(
		private readonly table: Ranks,
		pattern: RegExp,
		private readonly asciiScan: boolean,
	) {
		this.pattern = new RegExp(pattern.source, "gu");
	}

	readonly count = (text: string): number => {
		if (!this.asciiScan) {
			let total = 0;
			const re = this.pattern;
			re.lastIndex = 0;
			for (let m = re.exec(text); m !== null; m = re.exec(text)) total += this.piece(m[0]);
			return total;
		}
		let total = 0;
		const n = text.length;
		for (let i = 0; i < n; ) {
			const end = text.charCodeAt(i) < 128 ? o200kPieceEnd(text, i) : ABORT;
			if (end === ABORT) {
				// Every character starts a piece: the match found from `i` is the one at `i`.
				this.pattern.lastIndex = i;
				const piece = (this.pattern.exec(text) as RegExpExecArray)[0];
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
		const tag = h >>> RANK_BITS;
		for (let slot = (h >>> 0) & t.mask; ; slot = (slot + 1) & t.mask) {
			const v = t.slots[slot] as number;
			if (v === 0) break;
			if (v >>> RANK_BITS !== tag) continue;
			const rank = (v & RANK_MASK) - 1;
			const o = t.ends[rank] as number;
			if ((t.ends[rank + 1] as number) - o !== length) continue;
			let k = 0;
			while (k < length && t.bytes[o + k] === text.charCodeAt(s + k)) k++;
			if (k === length) return 1;
		}
		const known = this.ascii.get(text, s, e, h);
		if (known >= 0) return known;
		if (this.buffer.length < length) this.buffer = new Uint8Array(length + 64);
		for (let k = 0; k < length; k++) this.buffer[k] = text.charCodeAt(s + k);
		const n = this.merge(this.buffer, length);
		this.ascii.set(text, s, e, h, n);
		return n;
	}

	/** Tokens of any piece: one when it is a token (looked up as the string it is), else merged. */
	private piece(piece: string): number {
		const known = this.merged.get(piece);
		if (known !== undefined) return known;
		if (this.buffer.length < piece.length * 3) this.buffer = new Uint8Array(piece.length * 3 + 64);
		const length = this.encoder.encodeInto(piece, this.buffer).written;
		const n =
			!LONE_SURROGATE.test(piece) && this.rawRank(this.buffer, 0, length) !== NONE
				? 1
				: this.merge(this.buffer, length);
		if (this.merged.size >= CACHE_SIZE) this.merged.clear();
		this.merged.set(piece, n);
		return n;
	}

	/**
	 * Byte-pair merge of `b[0..length)`: the number of tokens it ends in. The
	 * parts' starts and the rank of each part with the next are kept in
	 * arrays reused from piece to piece.
	 */
	private merge(b: Uint8Array, length: number): number {
		if (this.starts.length <= length) {
			this.starts = new Int32Array(2 * length + 2);
			this.pairRanks = new Int32Array(2 * length + 2);
		}
		const starts = this.starts;
		const ranks = this.pairRanks;
		for (let i = 0; i < length - 1; i++) {
			starts[i] = i;
			ranks[i] = this.rank(b, i, i + 2);
		}
		starts[length - 1] = length - 1;
		starts[length] = length;
		ranks[length - 1] = NONE;
		// parts + 1 starts (the last is the end); ranks[i] ranks parts i and i + 1 joined.
		let parts = length;
		while (parts > 1) {
			let lowest = NONE;
			let at = -1;
			for (let i = 0; i < parts - 1; i++) {
				const r = ranks[i] as number;
				if (r < lowest) {
					lowest = r;
					at = i;
				}
			}
			if (at === -1) break;
			starts.copyWithin(at + 1, at + 2, parts + 1);
			ranks.copyWithin(at, at + 1, parts);
			parts--;
			ranks[at] =
				at + 1 < parts ? this.rank(b, starts[at] as number, starts[at + 2] as number) : NONE;
			if (at > 0) ranks[at - 1] = this.rank(b, starts[at - 1] as number, starts[at + 1] as number);
		}
		return parts;
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
		const h = hashBytes(b, s, e);
		const tag = h >>> RANK_BITS;
		for (let slot = h & t.mask; ; slot = (slot + 1) & t.mask) {
			const v = t.slots[slot] as number;
			if (v === 0) return NONE;
			if (v >>> RANK_BITS !== tag) continue;
			const rank = (v & RANK_MASK) - 1;
			const o = t.ends[rank] as number;
			if ((t.ends[rank + 1] as number) - o !== length) continue;
			let k = 0;
			while (k < length && t.bytes[o + k] === b[s + k]) k++;
			if (k === length) return rank;
		}
	}
}

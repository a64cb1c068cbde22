/**
 * Folding text to the form in which look-alikes are equal: compatibility
 * decomposition (NFKD), default-ignorable code points (zero-width and the
 * like) and combining marks removed, lower case, and the Unicode confusable
 * skeleton (UTS #39) wherever it lands on plain ASCII; `l`, `I`, `1` and `|`
 * fold to `i`, `0` to `o`. So `＜ｅｎｖ`, `<еnv` (Cyrillic е), `<e\u200Bnv`
 * and `<ENV` all fold to `<env`. The table of non-ASCII code points is
 * generated (scripts/fold-table.js); ASCII folds one to one, so a text
 * without other code points folds in two native passes and needs no map.
 */
import { FOLD_RUNS } from "./fold-table.js";

/** A folded text and the way back to the original's offsets. */
export interface Folded {
	text: string;
	/**
	 * The original offset of the code point that produced folded offset `i`
	 * (`text.length` maps to the original's length).
	 */
	origin(i: number): number;
}

/** Characters that read as `<` or `>` although no table folds them so. */
const ANGLES: Record<string, string> = {
	"\u2329": "<",
	"\u232a": ">",
	"\u3008": "<",
	"\u3009": ">",
	"\u27e8": "<",
	"\u27e9": ">",
	"\u276c": "<",
	"\u276d": ">",
	"\u276e": "<",
	"\u276f": ">",
	"\u2770": "<",
	"\u2771": ">",
	"\u29fc": "<",
	"\u29fd": ">",
};

const DROP = /^[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]$/u;
const NON_ASCII = /\P{ASCII}/u;
const NON_ASCII_RUNS = /\P{ASCII}+/gu;

let table: Map<number, string> | undefined;

/** The generated runs, decoded on the first text that needs them. */
function folds(): Map<number, string> {
	if (table !== undefined) return table;
	table = new Map();
	for (const run of FOLD_RUNS.split("\u0000")) {
		const eq = run.indexOf("=");
		const [start = "", count] = run.slice(0, eq).split("*");
		const out = run.slice(eq + 1);
		const from = Number.parseInt(start, 36);
		if (count === undefined) {
			table.set(from, out);
			continue;
		}
		const step = count.endsWith("+") ? 1 : 0;
		const n = Number.parseInt(count, 36);
		const first = out.charCodeAt(0);
		for (let i = 0; i < n; i++) table.set(from + i, String.fromCharCode(first + i * step));
	}
	for (const [c, out] of Object.entries(ANGLES)) table.set(c.charCodeAt(0), out);
	return table;
}

const cache = new Map<number, string>();

/** The fold of one non-ASCII code point: ASCII, nothing, or the code point itself. */
function foldCodePoint(cp: number): string {
	let out = cache.get(cp);
	if (out === undefined) {
		const char = String.fromCodePoint(cp);
		out = folds().get(cp) ?? (DROP.test(char) ? "" : char);
		if (cache.size < 65536) cache.set(cp, out);
	}
	return out;
}

/** ASCII, one to one: lower case, and the letters ASCII itself confuses merged. */
function foldAscii(text: string): string {
	return text.toLowerCase().replace(/[l1|]/g, "i").replace(/0/g, "o").replace(/`/g, "'");
}

const identity = (i: number) => i;

/** `text` folded, with the map back to its offsets. Linear in the length of `text`. */
export function fold(text: string): Folded {
	if (!NON_ASCII.test(text)) return { text: foldAscii(text), origin: identity };
	// Where a code point folds to a different length, the offsets shift: record
	// each such code point as [folded start, folded end, original start, original end].
	const spans: number[] = [];
	let shift = 0; // original offset minus folded offset, after the last span
	const replaced = text.replace(NON_ASCII_RUNS, (run: string, offset: number) => {
		let out = "";
		for (let i = 0; i < run.length; ) {
			const cp = run.codePointAt(i) as number;
			const size = cp > 0xffff ? 2 : 1;
			const f = foldCodePoint(cp);
			if (f.length !== size) {
				const at = offset + i;
				const start = at - shift;
				spans.push(start, start + f.length, at, at + size);
				shift += size - f.length;
			}
			out += f;
			i += size;
		}
		return out;
	});
	// Only U+0130 changes length in lower case, and the table has folded it.
	const folded = foldAscii(replaced);
	if (spans.length === 0) return { text: folded, origin: identity };
	return { text: folded, origin: (i) => originOf(spans, i) };
}

/** The original offset of folded offset `i`, by binary search over the spans. */
function originOf(spans: readonly number[], i: number): number {
	let [lo, hi] = [0, spans.length / 4 - 1];
	let found = -1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if ((spans[mid * 4] as number) <= i) {
			found = mid;
			lo = mid + 1;
		} else hi = mid - 1;
	}
	if (found === -1) return i;
	const [end, origStart, origEnd] = spans.slice(found * 4 + 1, found * 4 + 4) as [
		number,
		number,
		number,
	];
	return i < end ? origStart : i - end + origEnd;
}

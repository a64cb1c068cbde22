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
import { FOLD_CLASSES, FOLD_RANGES, FOLD_RUNS } from "./fold-table.js";

/** The ASCII characters {@link fold} turns into another: what each folded character is also read from. */
const ASCII_ALSO: Record<string, string> = { i: "l1|", o: "0", "'": "`" };

/** The ASCII characters that are not word characters but fold to one (`|` to `i`). */
const ASCII_TO_WORD = Object.entries(ASCII_ALSO)
	.filter(([to]) => /\w/.test(to))
	.flatMap(([, from]) => [...from].filter((c) => !/\w/.test(c)))
	.join("");

/** The same merges as replacements, for {@link foldAscii}. */
const ASCII_MERGES: [RegExp, string][] = Object.entries(ASCII_ALSO).map(([to, from]) => [
	new RegExp(`[${from.replace(/[\\\]^-]/g, "\\$&")}]`, "g"),
	to,
]);

/**
 * The pattern source for one folded ASCII character: itself, or a class of
 * it and the fold characters of the code points that read as it or as
 * another (long s reads as `s` by its decomposition, as `f` by its shape).
 * `fromAscii`: the pattern is matched on an ASCII text only lower-cased (see
 * {@link foldForMatch}), so it also takes the ASCII characters that fold to
 * `char` (`l`, `1` and `|` for `i`).
 */
export function charPattern(char: string, fromAscii = false): string {
	const literal = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
	const also = fromAscii ? (ASCII_ALSO[char] ?? "") : "";
	const classes = FOLD_CLASSES.flatMap((members, i) =>
		members.includes(char) ? [`\\x0${i + 1}`] : [],
	);
	if (classes.length === 0 && also === "") return literal(char);
	return `[${literal(char)}${[...also].map(literal).join("")}${classes.join("")}]`;
}

/**
 * A pattern source for a character that is not a word character once folded
 * (on an ASCII text only lower-cased, `|` is not one but folds to `i`).
 */
export function nonWordPattern(fromAscii = false): string {
	return `(?![\\w${fromAscii ? ASCII_TO_WORD : ""}${CLASS_CHARS}])`;
}

/** A pattern source for any class character (none of them is a word character). */
export const CLASS_CHARS = `\\x01-\\x0${Math.max(1, FOLD_CLASSES.length)}`;

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

const DROPPED = "\\p{Default_Ignorable_Code_Point}\\p{Mn}\\p{Me}";
const NON_ASCII = /\P{ASCII}/u;

/** The generated runs, decoded: run i covers `|lengths[i]|` code points from `starts[i]`. */
interface Runs {
	starts: Int32Array;
	/** Negative: each code point folds to the character after the one before. */
	lengths: Int32Array;
	outs: string[];
}

let runs: Runs | undefined;
let folding: RegExp | undefined;

/**
 * The pattern of every code point that folds to something else than itself
 * (its ranges come generated), and the runs decoded, on the first text that
 * needs them: a code point's fold is a binary search away, and no table of
 * every code point is built.
 */
function folds(): { runs: Runs; folding: RegExp } {
	if (runs === undefined || folding === undefined) {
		const texts = FOLD_RUNS.split("\u0000");
		const decoded: Runs = {
			starts: new Int32Array(texts.length),
			lengths: new Int32Array(texts.length),
			outs: new Array(texts.length),
		};
		for (let i = 0; i < texts.length; i++) {
			const run = texts[i] as string;
			const eq = run.indexOf("=");
			const star = run.indexOf("*");
			const plus = run.charCodeAt(eq - 1) === 0x2b; // "+"
			const n = star === -1 || star > eq ? 1 : Number.parseInt(run.slice(star + 1, eq), 36);
			decoded.starts[i] = Number.parseInt(run.slice(0, star === -1 || star > eq ? eq : star), 36);
			decoded.lengths[i] = plus ? -n : n;
			decoded.outs[i] = run.slice(eq + 1);
		}
		runs = decoded;
		folding = new RegExp(`[${DROPPED}${FOLD_RANGES}${Object.keys(ANGLES).join("")}]`, "gu");
	}
	return { runs, folding };
}

/** The fold of `cp` (empty when it is dropped: a zero-width character, a combining mark). */
function foldOf(cp: number, { starts, lengths, outs }: Runs): string {
	const angle = cp < 0x10000 ? ANGLES[String.fromCharCode(cp)] : undefined;
	if (angle !== undefined) return angle;
	let [lo, hi] = [0, starts.length - 1];
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((starts[mid] as number) <= cp) lo = mid;
		else hi = mid - 1;
	}
	const start = starts[lo] as number;
	const length = lengths[lo] as number;
	if (cp < start || cp >= start + Math.abs(length)) return "";
	const out = outs[lo] as string;
	return length < 0 ? String.fromCharCode(out.charCodeAt(0) + (cp - start)) : out;
}

/** ASCII, one to one: lower case, and the letters ASCII itself confuses merged. */
function foldAscii(text: string): string {
	let out = text.toLowerCase();
	for (const [from, to] of ASCII_MERGES) out = out.replace(from, to);
	return out;
}

const identity = (i: number) => i;

/**
 * A text in the form reserved patterns are matched on: an ASCII text only
 * lower-cased (`ascii`: match the `fromAscii` patterns, which read `l`, `1`
 * and `|` as `i` themselves, sparing three passes over the text), any other
 * text {@link fold}ed. Offsets map back with `origin` either way.
 */
export function foldForMatch(text: string): Folded & { ascii: boolean } {
	if (!NON_ASCII.test(text)) return { text: text.toLowerCase(), origin: identity, ascii: true };
	return { ...fold(text), ascii: false };
}

/** `text` folded, with the map back to its offsets. Linear in the length of `text`. */
export function fold(text: string): Folded {
	if (!NON_ASCII.test(text)) return { text: foldAscii(text), origin: identity };
	// Where a code point folds to a different length, the offsets shift: record
	// each such code point as [folded start, folded end, original start, original end].
	const spans: number[] = [];
	let shift = 0; // original offset minus folded offset, after the last span
	const { runs: decoded, folding: pattern } = folds();
	// Only code points that fold to something else are visited: ASCII from the
	// table, or nothing for an invisible one.
	const replaced = text.replace(pattern, (char: string, at: number) => {
		const f = foldOf(char.codePointAt(0) as number, decoded);
		if (f.length !== char.length) {
			const start = at - shift;
			spans.push(start, start + f.length, at, at + char.length);
			shift += char.length - f.length;
		}
		return f;
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

/**
 * o200k's pre-tokenizer (the regular expression that cuts a text into the
 * pieces the byte-pair encoding merges), without the regular expression
 * where the text is ASCII. Most of a session's text is: code, paths, logs,
 * English. The expression's Unicode classes make it the slowest part of a
 * count; on ASCII its alternatives reduce to a few character classes,
 * scanned here. Wherever a piece's end depends on a character past ASCII
 * (a letter run that may go on in another script, a space that may be a
 * Unicode one), the scan gives up and the expression, anchored at the same
 * place, decides: every character starts a piece, so the pieces are those
 * of the expression exactly.
 *
 * Written for a cold process as much as a warm one: a character's class is
 * one look-up in a table (no call per character while the code is not yet
 * optimized), and no character past the text's end is read (a read out of
 * bounds would throw the optimized code away).
 */

/** The scan gave up: a character past ASCII decides this piece. */
export const ABORT = -1;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
/** ASCII white space as `\s` has it (tab, line feed, vertical tab, form feed, carriage return, space). */
const SPACE = 8;
const NEWLINE = 16;
/** ASCII that is no letter, digit or white space (`[^\s\p{L}\p{N}]`). */
const OTHER = 32;
/** Past ASCII. */
const WIDE = 64;
const LETTER = UPPER | LOWER;

/** The class of each UTF-16 code unit. */
const CLASS = new Uint8Array(65536).fill(WIDE);
for (let c = 0; c < 128; c++) {
	if (c >= 65 && c <= 90) CLASS[c] = UPPER;
	else if (c >= 97 && c <= 122) CLASS[c] = LOWER;
	else if (c >= 48 && c <= 57) CLASS[c] = DIGIT;
	else if (c === 10 || c === 13) CLASS[c] = SPACE | NEWLINE;
	else if ((c >= 9 && c <= 13) || c === 32) CLASS[c] = SPACE;
	else CLASS[c] = OTHER;
}

/**
 * The end of o200k's piece that starts at `i` (an ASCII character) in
 * `text`, or {@link ABORT} when a character past ASCII decides it. The
 * expression's alternatives, in its order:
 * `[^\r\n\p{L}\p{N}]?` upper* lower+ `'s`…, the same with upper+ lower*,
 * `\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`.
 */
export function o200kPieceEnd(text: string, i: number): number {
	const n = text.length;
	const c = CLASS[text.charCodeAt(i)] as number;
	if (c & LETTER) return lettersEnd(text, i);
	if (c & DIGIT) {
		let m = i + 1;
		while (m < n && m - i < 3 && (CLASS[text.charCodeAt(m)] as number) & DIGIT) m++;
		return m - i < 3 && m < n && (CLASS[text.charCodeAt(m)] as number) & WIDE ? ABORT : m;
	}
	if (c & NEWLINE) return spaceEnd(text, i);
	// `c` may prefix a letter run: any character but a newline, a letter or a digit.
	if (i + 1 < n) {
		const next = CLASS[text.charCodeAt(i + 1)] as number;
		if (next & WIDE) return ABORT;
		if (next & LETTER) return lettersEnd(text, i + 1);
	}
	if (c & OTHER) return othersEnd(text, i + 1);
	if (text.charCodeAt(i) === 32 && i + 1 < n && (CLASS[text.charCodeAt(i + 1)] as number) & OTHER)
		return othersEnd(text, i + 2);
	return spaceEnd(text, i);
}

/** A letter run from `j`: upper* lower+, else upper+; then a contraction. */
function lettersEnd(text: string, j: number): number {
	const n = text.length;
	let k = j;
	while (k < n && (CLASS[text.charCodeAt(k)] as number) === UPPER) k++;
	if (k === n) return k;
	const c = CLASS[text.charCodeAt(k)] as number;
	if (c & WIDE) return ABORT;
	if (c === LOWER) {
		let m = k + 1;
		while (m < n && (CLASS[text.charCodeAt(m)] as number) === LOWER) m++;
		if (m < n && (CLASS[text.charCodeAt(m)] as number) & WIDE) return ABORT;
		return contractionEnd(text, m);
	}
	return contractionEnd(text, k);
}

/** `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve`, `'re` (either case) at `m`, else nothing. */
function contractionEnd(text: string, m: number): number {
	const n = text.length;
	if (m + 1 >= n || text.charCodeAt(m) !== 39) return m;
	const a = text.charCodeAt(m + 1) | 32;
	if (a === 115 || a === 100 || a === 109 || a === 116) return m + 2;
	if (m + 2 >= n) return m;
	const b = text.charCodeAt(m + 2) | 32;
	if ((a === 108 && b === 108) || ((a === 118 || a === 114) && b === 101)) return m + 3;
	return m;
}

/** `[^\s\p{L}\p{N}]+` from `m` (one is already taken), then `[\r\n/]*`. */
function othersEnd(text: string, m: number): number {
	const n = text.length;
	while (m < n && (CLASS[text.charCodeAt(m)] as number) & OTHER) m++;
	if (m < n && (CLASS[text.charCodeAt(m)] as number) & WIDE) return ABORT;
	while (m < n) {
		const c = text.charCodeAt(m);
		if (c !== 10 && c !== 13 && c !== 47) break;
		m++;
	}
	return m;
}

/** White space from `i`: up to its last newline, else all of it at the end, else all but its last. */
function spaceEnd(text: string, i: number): number {
	const n = text.length;
	let w = i;
	let lastNewline = -1;
	while (w < n) {
		const c = CLASS[text.charCodeAt(w)] as number;
		if (!(c & SPACE)) break;
		if (c & NEWLINE) lastNewline = w;
		w++;
	}
	if (w < n && (CLASS[text.charCodeAt(w)] as number) & WIDE) return ABORT;
	if (lastNewline >= 0) return lastNewline + 1;
	if (w === n) return n;
	return w - i >= 2 ? w - 1 : i + 1;
}

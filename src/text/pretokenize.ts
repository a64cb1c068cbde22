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
 */

/** The scan gave up: a character past ASCII decides this piece. */
export const ABORT = -1;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isNewline = (c: number) => c === 10 || c === 13;
/** ASCII white space as `\s` has it (tab, line feed, vertical tab, form feed, carriage return, space). */
const isSpace = (c: number) => (c >= 9 && c <= 13) || c === 32;
/** ASCII that is no letter, digit or white space (`[^\s\p{L}\p{N}]`). */
const isOther = (c: number) => c < 128 && !isUpper(c) && !isLower(c) && !isDigit(c) && !isSpace(c);

/**
 * The end of o200k's piece that starts at `i` (an ASCII character) in
 * `text`, or {@link ABORT} when a character past ASCII decides it. The
 * expression's alternatives, in its order:
 * `[^\r\n\p{L}\p{N}]?` upper* lower+ `'s`…, the same with upper+ lower*,
 * `\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`.
 */
export function o200kPieceEnd(text: string, i: number): number {
	const n = text.length;
	const c = text.charCodeAt(i);
	if (isUpper(c) || isLower(c)) return lettersEnd(text, i);
	if (isDigit(c)) {
		let m = i + 1;
		while (m < n && m - i < 3 && isDigit(text.charCodeAt(m))) m++;
		return m - i < 3 && m < n && text.charCodeAt(m) > 127 ? ABORT : m;
	}
	if (isNewline(c)) return spaceEnd(text, i);
	// `c` may prefix a letter run: any character but a newline, a letter or a digit.
	if (i + 1 < n) {
		const next = text.charCodeAt(i + 1);
		if (next > 127) return ABORT;
		if (isUpper(next) || isLower(next)) return lettersEnd(text, i + 1);
	}
	if (isOther(c)) return othersEnd(text, i + 1);
	if (c === 32 && i + 1 < n && isOther(text.charCodeAt(i + 1))) return othersEnd(text, i + 2);
	return spaceEnd(text, i);
}

/** A letter run from `j`: upper* lower+, else upper+; then a contraction. */
function lettersEnd(text: string, j: number): number {
	const n = text.length;
	let k = j;
	while (k < n && isUpper(text.charCodeAt(k))) k++;
	if (k < n && text.charCodeAt(k) > 127) return ABORT;
	if (k < n && isLower(text.charCodeAt(k))) {
		let m = k + 1;
		while (m < n && isLower(text.charCodeAt(m))) m++;
		if (m < n && text.charCodeAt(m) > 127) return ABORT;
		return contractionEnd(text, m);
	}
	return contractionEnd(text, k);
}

/** `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve`, `'re` (either case) at `m`, else nothing. */
function contractionEnd(text: string, m: number): number {
	if (text.charCodeAt(m) !== 39) return m;
	const a = text.charCodeAt(m + 1) | 32;
	if (a === 115 || a === 100 || a === 109 || a === 116) return m + 2;
	const b = text.charCodeAt(m + 2) | 32;
	if ((a === 108 && b === 108) || ((a === 118 || a === 114) && b === 101)) return m + 3;
	return m;
}

/** `[^\s\p{L}\p{N}]+` from `m` (one is already taken), then `[\r\n/]*`. */
function othersEnd(text: string, m: number): number {
	const n = text.length;
	while (m < n && isOther(text.charCodeAt(m))) m++;
	if (m < n && text.charCodeAt(m) > 127) return ABORT;
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
		const c = text.charCodeAt(w);
		if (!isSpace(c)) break;
		if (isNewline(c)) lastNewline = w;
		w++;
	}
	if (w < n && text.charCodeAt(w) > 127) return ABORT;
	if (lastNewline >= 0) return lastNewline + 1;
	if (w === n) return n;
	return w - i >= 2 ? w - 1 : i + 1;
}

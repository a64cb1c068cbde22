/**
 * Where and why a line is not JSON, in words people read: a column and a
 * reason ("two JSON values on one line", "a UTF-8 byte-order mark"), where
 * `JSON.parse` says "position N" or nothing at all. Runs only on a line that
 * `JSON.parse` refused, so it favours clarity over speed; iterative, so a
 * deeply nested line cannot overflow the stack.
 */

export interface JsonError {
	/** 1-based column, in UTF-16 code units of the line. */
	column: number;
	reason: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The first syntax error of `text` (a line `JSON.parse` rejected). */
export function locateJsonError(text: string): JsonError {
	let i = 0;
	const fail = (reason: string, at = i): JsonError => ({ column: at + 1, reason });
	const skip = () => {
		while (i < text.length && WS.has(text.charCodeAt(i))) i++;
	};
	const unexpected = (what: string): JsonError => {
		if (i >= text.length) return fail(`the line ends where ${what} should be`);
		const c = text.charCodeAt(i);
		if (c === 0xfeff) return fail("a UTF-8 byte-order mark (U+FEFF) where JSON should start");
		return fail(`unexpected ${show(text, i)} where ${what} should be`);
	};
	// Each frame: "{" or "[" and whether the next item is the first one.
	const stack: { open: number; first: boolean }[] = [];
	skip();
	for (;;) {
		// A value.
		const c = text.charCodeAt(i);
		if (c === 0x7b || c === 0x5b) {
			stack.push({ open: c, first: true });
			i++;
		} else if (c === 0x22) {
			const error = scanString(text, i);
			if (typeof error !== "number") return error;
			i = error;
		} else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
			const end = scanNumber(text, i);
			if (end < 0) return fail("a malformed number", -1 - end);
			i = end;
		} else {
			const word = ["true", "false", "null"].find((w) => w.charCodeAt(0) === c);
			if (word === undefined) return unexpected("a value");
			for (let k = 0; k < word.length; k++, i++) {
				if (text.charCodeAt(i) !== word.charCodeAt(k)) return unexpected(`"${word}"`);
			}
		}
		// What follows it: a key, a separator, a closer, or the end.
		for (;;) {
			skip();
			const frame = stack.at(-1);
			if (frame === undefined) {
				if (i >= text.length) return fail("not valid JSON", 0);
				return text.charCodeAt(i) === 0x7b || text.charCodeAt(i) === 0x5b
					? fail("two JSON values on one line (a second one starts here)")
					: fail(`unexpected ${show(text, i)} after the end of the JSON value`);
			}
			const close = frame.open === 0x7b ? 0x7d : 0x5d;
			const d = text.charCodeAt(i);
			if (d === close) {
				stack.pop();
				i++;
				continue;
			}
			if (frame.first) {
				frame.first = false;
				if (frame.open === 0x5b) break; // an array's first value
			} else if (d === 0x2c) {
				i++;
				skip();
				if (frame.open === 0x5b) {
					if (text.charCodeAt(i) === 0x5d) return fail("a trailing comma before ]");
					break;
				}
			} else {
				return unexpected(frame.open === 0x7b ? "',' or '}'" : "',' or ']'");
			}
			// An object member: "key" : value
			skip();
			if (text.charCodeAt(i) !== 0x22) {
				return text.charCodeAt(i) === 0x7d
					? fail("a trailing comma before }")
					: unexpected("a double-quoted property name");
			}
			const end = scanString(text, i);
			if (typeof end !== "number") return end;
			i = end;
			skip();
			if (text.charCodeAt(i) !== 0x3a) return unexpected("':'");
			i++;
			skip();
			break;
		}
	}
}

/** The index just past the number starting at `start`, or -1 - the index where it goes wrong. */
function scanNumber(text: string, start: number): number {
	const digit = (k: number) => {
		const d = text.charCodeAt(k);
		return d >= 0x30 && d <= 0x39;
	};
	let i = start;
	if (text.charCodeAt(i) === 0x2d) i++;
	if (!digit(i)) return -1 - i;
	if (text.charCodeAt(i) === 0x30) i++;
	else while (digit(i)) i++;
	if (text.charCodeAt(i) === 0x2e) {
		i++;
		if (!digit(i)) return -1 - i;
		while (digit(i)) i++;
	}
	const e = text.charCodeAt(i);
	if (e === 0x65 || e === 0x45) {
		i++;
		if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++;
		if (!digit(i)) return -1 - i;
		while (digit(i)) i++;
	}
	return i;
}

/** The index just past the string starting at `start`, or the error in it. */
function scanString(text: string, start: number): number | JsonError {
	for (let i = start + 1; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x22) return i + 1;
		if (c < 0x20)
			return { column: i + 1, reason: `a control character (${show(text, i)}) in a string` };
		if (c === 0x5c) {
			const e = text[i + 1];
			if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
			else if (e === "u") {
				// As V8: at the first of the four characters after \u that is not a hex digit.
				const hex = /^[0-9a-fA-F]{0,4}/.exec(text.slice(i + 2, i + 6))?.[0].length ?? 0;
				if (hex < 4) return { column: i + 3 + hex, reason: "a bad \\u escape in a string" };
				i += 5;
			} else return { column: i + 2, reason: "a bad escape in a string" };
		}
	}
	return {
		column: text.length + 1,
		reason: `a string that is not closed (it opens at column ${start + 1})`,
	};
}

/** One character for a message: quoted, with controls and invisibles escaped. */
function show(text: string, i: number): string {
	const c = text.codePointAt(i) ?? 0;
	if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c > 0x7e) {
		return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
	}
	return JSON.stringify(String.fromCodePoint(c));
}

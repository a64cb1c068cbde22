/**
 * Text bound for a terminal. A session log, a file name or a template can
 * hold raw control characters: ESC starts sequences that set the window
 * title, clear the screen or write the clipboard (OSC 52), BEL rings, C1
 * codes act like ESC on many terminals, and bidirectional overrides reorder
 * what is shown. Every one of them is printed as a visible escape instead.
 */

/** C0 (but tab and newline), DEL, C1, and the bidirectional controls. */
function isControl(code: number): boolean {
	if (code < 0x20) return code !== 0x09 && code !== 0x0a;
	if (code < 0x7f) return false;
	if (code <= 0x9f) return true;
	return (
		code === 0x061c ||
		code === 0x200e ||
		code === 0x200f ||
		(code >= 0x202a && code <= 0x202e) ||
		(code >= 0x2066 && code <= 0x2069)
	);
}

/** `text` with every control character but tab and newline shown as `\xNN` or `\uNNNN`. */
export function escapeControl(text: string): string {
	let out = "";
	let last = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code >= 0x20 && code < 0x7f) continue;
		if (!isControl(code)) continue;
		out +=
			text.slice(last, i) +
			(code <= 0xff
				? `\\x${code.toString(16).padStart(2, "0")}`
				: `\\u${code.toString(16).padStart(4, "0")}`);
		last = i + 1;
	}
	return last === 0 ? text : out + text.slice(last);
}

/** `text` on one line: line breaks and tabs escaped too (for headers, previews and names). */
export function escapeLine(text: string): string {
	return escapeControl(text).replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}

/** JSON text with C1 and DEL escaped as well (JSON.stringify escapes only C0). Same value. */
export function escapeJsonControl(json: string): string {
	return json.replace(
		/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

/** ANSI colours, for text already escaped; `on` false leaves the text as it is. */
export function paint(on: boolean) {
	const sgr = (code: string) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
	return { red: sgr("31"), green: sgr("32"), cyan: sgr("36"), dim: sgr("2"), bold: sgr("1") };
}

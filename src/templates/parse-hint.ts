/**
 * What a template author needs from a parse error that Handlebars words for
 * its grammar ("Expecting 'OPEN_ENDBLOCK', got 'EOF'", at the end of the
 * file): the tag at fault, found by scanning the body's tags. A block opened
 * and never closed is named where it opens, a closing tag that closes
 * another block (or none) where it stands, a `{{` without its `}}` where it
 * starts. Consulted only once Handlebars has refused the body.
 */

/** A body position (1-based line, 0-based column) and what is wrong there. */
export interface ParseHint {
	line: number;
	column: number;
	reason: string;
}

interface Opened {
	name: string;
	at: number;
}

/**
 * The first tag the body's tags show to be wrong, or undefined when they
 * show none. Lines in the reason (where a block opened) are the file's: the
 * body starts on line `bodyLine`.
 */
export function parseHint(body: string, bodyLine = 1): ParseHint | undefined {
	const hint = (at: number, reason: string): ParseHint => {
		const before = body.slice(0, at);
		const line = before.split("\n").length;
		return { line, column: at - (before.lastIndexOf("\n") + 1), reason };
	};
	const where = (at: number) => {
		const { line, column } = hint(at, "");
		return `${line + bodyLine - 1}:${column + 1}`;
	};
	const stack: Opened[] = [];
	for (let at = body.indexOf("{{"); at !== -1; ) {
		if (body.startsWith("{{!--", at) || body.startsWith("{{~!--", at)) {
			const end = body.indexOf("--}}", body.indexOf("!--", at) + 3);
			if (end === -1) return hint(at, "this comment is never closed: end it with --}}");
			at = body.indexOf("{{", end + 4);
			continue;
		}
		const raw = /^\{\{\{\{\s*([^\s}]+)[^}]*\}\}\}\}/.exec(body.slice(at, at + 256));
		if (raw !== null) {
			// A raw block's content is text, tags and all, up to its closing {{{{/name}}}}.
			const closing = `{{{{/${raw[1]}}}}}`;
			const end = body.indexOf(closing, at + raw[0].length);
			if (end === -1) return hint(at, `this raw block is never closed: add ${closing}`);
			at = body.indexOf("{{", end + closing.length);
			continue;
		}
		const close = body.indexOf("}}", at + 2);
		if (body.startsWith("{{!", at) || body.startsWith("{{~!", at)) {
			// A short comment ends at the first }}, whatever it holds.
			if (close === -1) return hint(at, "this comment is never closed: end it with }}");
			at = body.indexOf("{{", close + 2);
			continue;
		}
		const next = body.indexOf("{{", at + 2);
		if (close === -1 || (next !== -1 && next < close)) {
			return hint(at, "this {{ is not closed: end the tag with }}");
		}
		const inner = body
			.slice(at + 2, close)
			.replace(/^[{~]+|~$/g, "")
			.trim();
		const start = at;
		at = next === -1 ? -1 : body.indexOf("{{", close + 2);
		if (/^[#^]/.test(inner) && inner !== "^") {
			const name = /^[#^][>*]?\s*([^\s}]+)/.exec(inner)?.[1];
			if (name !== undefined) stack.push({ name, at: start });
		} else if (inner.startsWith("/")) {
			const name = inner.slice(1).trim();
			const open = stack.pop();
			if (open === undefined) return hint(start, `{{/${name}}} closes no block: remove it`);
			if (open.name !== name) {
				return hint(
					start,
					`{{/${name}}} does not close the {{#${open.name}}} opened at ${where(open.at)}: close that one first, with {{/${open.name}}}`,
				);
			}
		}
	}
	const open = stack.at(-1);
	return open === undefined
		? undefined
		: hint(open.at, `{{#${open.name}}} opened here is never closed: add {{/${open.name}}}`);
}

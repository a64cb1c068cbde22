/**
 * Keeping session values inside their sections. Text that comes from the log
 * (memory, introduction, cwd, tool names, ids, summaries, custom messages,
 * command output) is data: it may not open or close a prompt section, forge
 * the lineage block or a framing. Rather than reject a session over its own
 * text, such markup is neutralised: the `<` of a reserved tag becomes `&lt;`,
 * a framing marker gets a backslash before it, and a one-line value loses its
 * line breaks. Detection runs on the folded text (look-alikes, zero-width
 * characters, case and spacing count for nothing); the escape is applied to
 * the original, so what the model reads stays legible.
 */
import { foldForMatch } from "./fold.js";
import { matchFolded, reservedOf } from "./reserved.js";

/** Anything that ends a line or is a control character (a tab excepted). */
const LINE_BREAKS = /(?:(?!\t)[\p{Cc}\p{Zl}\p{Zp}])+/gu;

export interface NeutralizeOptions {
	/** A one-line value (cwd, a tool name, an id): line breaks and controls become a space. */
	line?: boolean;
}

/** A place where session text reproduces a reserved tag or marker, as offsets of the original. */
export interface ReservedHit {
	kind: "tag" | "marker";
	/** The first code unit of the tag's `<` (or its look-alike), or of the marker. */
	start: number;
	/** For a tag: the end of its `<`; for a marker: the end of the marker. */
	end: number;
	/** A marker already escaped with a backslash. */
	escaped: boolean;
}

/**
 * `text` with every reserved tag and every marker of `markers` defused, the
 * one function for every value from the session. Idempotent.
 */
export function neutralize(
	text: string,
	markers: readonly string[] = [],
	options: NeutralizeOptions = {},
): string {
	const source = options.line === true ? text.replace(LINE_BREAKS, " ") : text;
	const hits = findReserved(source, markers).filter((h) => !h.escaped);
	if (hits.length === 0) return source;
	let out = "";
	let from = 0;
	for (const hit of hits) {
		if (hit.start < from) continue; // inside an earlier edit
		out += source.slice(from, hit.start);
		if (hit.kind === "tag") {
			out += "&lt;";
			from = hit.end;
		} else {
			out += "\\";
			from = hit.start;
		}
	}
	return out + source.slice(from);
}

/** Every reserved tag and marker in `text`, in order, found on its folded form. Linear. */
export function findReserved(text: string, markers: readonly string[] = []): ReservedHit[] {
	const reserved = reservedOf(markers);
	// Without markers, only a `<` or a character beyond ASCII can start a hit.
	if (reserved.marker === undefined && !/[<\P{ASCII}]/u.test(text)) return [];
	const folded = foldForMatch(text);
	const hits: ReservedHit[] = [];
	for (const m of matchFolded(folded, reserved.tag)) {
		const start = folded.origin(m.index);
		hits.push({ kind: "tag", start, end: folded.origin(m.index + 1), escaped: false });
	}
	if (reserved.marker !== undefined) {
		for (const m of matchFolded(folded, reserved.marker)) {
			const start = folded.origin(m.index);
			const end = folded.origin(m.index + m[0].length);
			hits.push({ kind: "marker", start, end, escaped: text[start - 1] === "\\" });
		}
	}
	return hits.sort((a, b) => a.start - b.start);
}

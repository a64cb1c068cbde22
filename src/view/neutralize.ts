/**
 * Keeping session values inside their sections. Text that comes from the log
 * (memory, introduction, cwd, tool names, ids, summaries, custom messages) is
 * data: it may not open or close a prompt section, forge the lineage block or
 * a summary framing. Rather than reject a session over its own text, such
 * markup is neutralised: the `<` of a reserved tag becomes `&lt;`, a framing
 * marker gets a backslash before it, and one-line values lose their line
 * breaks. What the model reads stays legible; only the structure is protected.
 */

/** Tags the prompt's structure is made of. */
export const RESERVED_TAGS = ["harness", "tools", "environment", "lineage", "memory", "summary"];

// No two `\s*` side by side: that would backtrack quadratically on a long run of spaces.
const TAG = new RegExp(`<(\\s*(?:/\\s*)?(?:${RESERVED_TAGS.join("|")})\\b)`, "gi");
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029]+/g;

/** Multi-line text: reserved tags defused, framing markers escaped. */
export function neutralizeBlock(text: string, markers: readonly string[] = []): string {
	let out = text.includes("<") ? text.replace(TAG, "&lt;$1") : text;
	for (const marker of markers) {
		if (out.includes(marker)) out = out.replace(markerPattern(marker), () => `\\${marker}`);
	}
	return out;
}

/** One-line text (cwd, a tool name, an id): as {@link neutralizeBlock}, on one line. */
export function neutralizeLine(text: string, markers: readonly string[] = []): string {
	return neutralizeBlock(text.replace(LINE_BREAKS, " "), markers);
}

const patterns = new Map<string, RegExp>();

/** A marker not already escaped: idempotent, so text can pass through twice. */
function markerPattern(marker: string): RegExp {
	let pattern = patterns.get(marker);
	if (pattern === undefined) {
		pattern = new RegExp(`(?<!\\\\)${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "g");
		patterns.set(marker, pattern);
	}
	return pattern;
}

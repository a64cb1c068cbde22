/**
 * The one list of what session text may never reproduce: the tags the
 * prompt's structure is made of and the framing markers of a template set
 * (each framing's front-matter `marker`). Patterns match on the folded form
 * of a text (see fold.ts), so look-alikes match as the real thing does.
 * No zod here: the render path loads this module.
 */
import { SECTIONS } from "./constants.js";
import { charPattern, type Folded, fold, nonWordPattern } from "./fold.js";

export { SECTIONS, type Section } from "./constants.js";

/** Every tag the templates write: the sections, the memory block, the summary block. */
export const RESERVED_TAGS: readonly string[] = [...SECTIONS, "memory", "summary"];

/**
 * A pattern compiled twice: for folded text, and for an ASCII text only
 * lower-cased (see `foldForMatch`). Match it with {@link matchFolded}.
 */
export interface FoldedPattern {
	readonly folded: RegExp;
	readonly ascii: RegExp;
}

/** `source(fromAscii)` compiled both ways, global. */
export function foldedPattern(source: (fromAscii: boolean) => string): FoldedPattern {
	return { folded: new RegExp(source(false), "g"), ascii: new RegExp(source(true), "g") };
}

/** Every match of `pattern` in `text` (from `foldForMatch`). */
export function matchFolded(
	text: Folded & { ascii: boolean },
	pattern: FoldedPattern,
): ReturnType<string["matchAll"]> {
	return text.text.matchAll(text.ascii ? pattern.ascii : pattern.folded);
}

/** The compiled patterns of one set's reserved names and markers. */
export interface Reserved {
	/** A reserved tag's opening `<` (match index). */
	readonly tag: FoldedPattern;
	/** Any framing marker; undefined when the set has none. */
	readonly marker: FoldedPattern | undefined;
}

/**
 * A folded name as a pattern: `rn` and `m` read alike, so either matches
 * either (the fold keeps ASCII one to one and cannot merge them itself); a
 * character that reads two ways matches both; between words and around
 * punctuation any run of whitespace, or none.
 */
export function namePattern(name: string, fromAscii = false): string {
	const folded = fold(name).text.trim();
	const tokens = folded.match(/[a-z0-9]+|\S/g) ?? [];
	return tokens
		.map((t) =>
			t.replace(/rn|m|[\s\S]/g, (c) =>
				c === "rn" || c === "m" ? "(?:m|rn)" : charPattern(c, fromAscii),
			),
		)
		.join("\\s*");
}

/** `<`, optional spaces and slashes, one of `names`, then no further letter. */
export function tagPattern(names: readonly string[], fromAscii = false): string {
	const name = names.map((n) => namePattern(n, fromAscii)).join("|");
	const slash = charPattern("/", fromAscii);
	return `${charPattern("<", fromAscii)}\\s*(?:${slash}[\\s/]*)?(?:${name})${nonWordPattern(fromAscii)}`;
}

const TAG = foldedPattern((ascii) => tagPattern(RESERVED_TAGS, ascii));
const compiled = new Map<string, Reserved>();

/** The patterns for a set whose framings have `markers` (memoised). */
export function reservedOf(markers: readonly string[]): Reserved {
	const key = markers.join("\u0000");
	let reserved = compiled.get(key);
	if (reserved === undefined) {
		const usable = markers.filter((m) => fold(m).text.trim() !== "");
		reserved = {
			tag: TAG,
			marker:
				usable.length === 0
					? undefined
					: foldedPattern((ascii) => usable.map((m) => `(?:${namePattern(m, ascii)})`).join("|")),
		};
		compiled.set(key, reserved);
	}
	return reserved;
}

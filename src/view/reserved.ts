/**
 * The one list of what session text may never reproduce: the tags the
 * prompt's structure is made of and the framing markers of a template set
 * (each framing's front-matter `marker`). Patterns match on the folded form
 * of a text (see fold.ts), so look-alikes match as the real thing does.
 * No zod here: the render path loads this module.
 */
import { fold } from "./fold.js";

/** The four sections of the system prompt, in the only order they may appear. */
export const SECTIONS = ["harness", "tools", "environment", "lineage"] as const;
export type Section = (typeof SECTIONS)[number];

/** Every tag the templates write: the sections, the memory block, the summary block. */
export const RESERVED_TAGS: readonly string[] = [...SECTIONS, "memory", "summary"];

/** The compiled patterns of one set's reserved names and markers. */
export interface Reserved {
	/** A reserved tag's opening `<` (match index), on folded text. */
	readonly tag: RegExp;
	/** Any framing marker, on folded text; undefined when the set has none. */
	readonly marker: RegExp | undefined;
}

/**
 * A folded name as a pattern: `rn` and `m` read alike, so either matches
 * either (the fold keeps ASCII one to one and cannot merge them itself);
 * between words and around punctuation any run of whitespace, or none.
 */
export function namePattern(name: string): string {
	const folded = fold(name).text.trim();
	const tokens = folded.match(/[a-z0-9]+|\S/g) ?? [];
	return tokens
		.map((t) => t.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&").replace(/rn|m/g, "(?:m|rn)"))
		.join("\\s*");
}

/** `<`, optional spaces and slashes, one of `names`, then no further letter. */
export function tagPattern(names: readonly string[]): string {
	return `<\\s*(?:/[\\s/]*)?(?:${names.map(namePattern).join("|")})\\b`;
}

const TAG = new RegExp(tagPattern(RESERVED_TAGS), "g");
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
					: new RegExp(usable.map((m) => `(?:${namePattern(m)})`).join("|"), "g"),
		};
		compiled.set(key, reserved);
	}
	return reserved;
}

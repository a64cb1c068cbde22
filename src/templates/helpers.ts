/**
 * The helpers templates may call: plain functions with their signatures, so
 * the static checker can verify every call. Anything else is refused when a
 * template set is compiled.
 */
import type { HelperSignature } from "./typecheck-scope.js";

type Helper = (...args: unknown[]) => unknown;

/** `{{join list ", "}}`: the items of a list of strings, with a separator (default ", "). */
function join(list: unknown, separator: unknown): string {
	const sep = typeof separator === "string" ? separator : ", ";
	return Array.isArray(list) ? list.map(String).join(sep) : "";
}

/** The length of the longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
	let longest = 0;
	for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	return longest;
}

/** `{{fence text}}`: a code fence `text` cannot close (three backticks, or one more than its longest run). */
function fence(text: unknown): string {
	return "`".repeat(Math.max(3, longestBacktickRun(String(text)) + 1));
}

/**
 * `{{code text}}`: `text` as an inline code span it cannot close: one backtick
 * more than its longest run, and a space inside when it starts or ends with one.
 */
function code(text: unknown): string {
	const s = String(text);
	const tick = "`".repeat(longestBacktickRun(s) + 1);
	const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
	return `${tick}${pad}${s}${pad}${tick}`;
}

/** `{{plural n "line" "lines"}}`: the first word when `n` is 1, else the second. */
function plural(n: unknown, one: unknown, many: unknown): string {
	return String(n === 1 ? one : many);
}

export const HELPERS: Readonly<Record<string, { fn: Helper; signature: HelperSignature }>> = {
	join: {
		fn: (list, separator, options) => join(list, options === undefined ? undefined : separator),
		signature: { params: ["string[]", "string"], optionalParams: 1, returns: "string" },
	},
	fence: {
		fn: (text) => fence(text),
		signature: { params: ["string"], returns: "string" },
	},
	code: {
		fn: (text) => code(text),
		signature: { params: ["string"], returns: "string" },
	},
	plural: {
		fn: (n, one, many) => plural(n, one, many),
		signature: { params: ["number", "string", "string"], returns: "string" },
	},
};

export const HELPER_SIGNATURES: Readonly<Record<string, HelperSignature>> = Object.fromEntries(
	Object.entries(HELPERS).map(([name, h]) => [name, h.signature]),
);

/** `knownHelpers` for the Handlebars compiler: ours, nothing else. */
export const KNOWN_HELPERS: Readonly<Record<string, boolean>> = Object.fromEntries(
	Object.keys(HELPERS).map((name) => [name, true]),
);

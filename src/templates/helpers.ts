/**
 * The helpers templates may call: plain functions with their signatures, so
 * the static checker can verify every call. Anything else is refused when a
 * template set is compiled.
 */
import type { HelperSignature } from "./typecheck.js";

type Helper = (...args: unknown[]) => unknown;

/** `{{join list ", "}}`: the items of a list, with a separator (default ", "). */
function join(list: unknown, separator: unknown): string {
	const sep = typeof separator === "string" ? separator : ", ";
	return Array.isArray(list) ? list.map(String).join(sep) : "";
}

export const HELPERS: Readonly<Record<string, { fn: Helper; signature: HelperSignature }>> = {
	join: {
		fn: (list, separator, options) => join(list, options === undefined ? undefined : separator),
		signature: { params: ["array", "string"], optionalParams: 1, returns: "string" },
	},
};

export const HELPER_SIGNATURES: Readonly<Record<string, HelperSignature>> = Object.fromEntries(
	Object.entries(HELPERS).map(([name, h]) => [name, h.signature]),
);

/** `knownHelpers` for the Handlebars compiler: ours, nothing else. */
export const KNOWN_HELPERS: Readonly<Record<string, boolean>> = Object.fromEntries(
	Object.keys(HELPERS).map((name) => [name, true]),
);

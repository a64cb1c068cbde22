/**
 * A bundle remembers the template set that rendered it, so that converting
 * it later frames its messages with the same set, whichever templates
 * folder that set came from. The reference is kept beside the bundle, not
 * in it: the bundle's data (and its JSON) stay as they are.
 */
import { ContextError } from "../errors.js";
import type { TemplateSet } from "../templates/compile.js";

const carried = new WeakMap<object, TemplateSet>();

/** Records that `bundle` was rendered with `set`; returns the bundle. */
export function carrySet<B extends object>(bundle: B, set: TemplateSet): B {
	carried.set(bundle, set);
	return bundle;
}

/**
 * The set that rendered `bundle`. A bundle that does not carry one (a copy,
 * or one read back from JSON) is looked up by its version in `registry`,
 * and refused when that set is not the one that rendered it.
 */
export function setOfBundle(
	bundle: { meta: { templateVersion: string; templateFingerprint?: string } },
	registry: { dir: string; get(version?: string): TemplateSet },
): TemplateSet {
	const own = carried.get(bundle);
	if (own !== undefined) return own;
	const { templateVersion, templateFingerprint } = bundle.meta;
	const set = registry.get(templateVersion);
	if (templateFingerprint !== undefined && set.fingerprint !== templateFingerprint) {
		throw new ContextError(
			"unknown_template_version",
			`the bundle was rendered with a template set ${templateVersion} other than the one in this folder (fingerprint ${templateFingerprint.slice(0, 12)}…, here ${set.fingerprint.slice(0, 12)}…): convert it with the templates folder that rendered it`,
			{ file: registry.dir },
		);
	}
	return set;
}

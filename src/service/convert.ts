/**
 * A bundle's (or bare messages') provider-ready form, outside a service:
 * framed by the template set that rendered the bundle, found by the version
 * and templates folder its `meta` names, and refused when that folder's set
 * is no longer the one that rendered it.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { convertMessages } from "../render/convert.js";
import { stubsOf } from "../render/stubs.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { type Compiler, TemplateRegistry } from "../templates/registry.js";
import type { TemplateSet } from "../templates/set.js";
import type { ContextBundle } from "./bundle.js";

/**
 * The provider-ready form of a bundle's messages. Given the bundle, it frames
 * them with the template set that rendered it (found by the version and
 * templates folder its `meta` names, and refused when that folder's set is
 * no longer the one that rendered it) and applies its `meta.virtualized`
 * (unless `virtualize` is false); given bare messages, with `templateVersion`
 * of `templates` (default: the newest set), every tool result whole (a stub
 * names its entry, which bare messages do not have). Messages of an unknown
 * role are left out with a warning, into `diagnostics` when given, else
 * through `process.emitWarning`.
 */
export function convertToLlm(
	input: ContextBundle | readonly ContextMessage[],
	options: {
		templates?: string;
		templateVersion?: string;
		diagnostics?: Diagnostic[];
		virtualize?: boolean;
		compiler?: Compiler;
	} = {},
): LlmMessage[] {
	const bundle = Array.isArray(input) ? undefined : (input as ContextBundle);
	const messages = bundle === undefined ? (input as readonly ContextMessage[]) : bundle.messages;
	const registry = TemplateRegistry.for(
		options.templates ?? bundle?.meta.templatesDir,
		options.compiler === undefined ? {} : { compiler: options.compiler },
	);
	const chosen = options.templates !== undefined || options.templateVersion !== undefined;
	const set =
		bundle === undefined || chosen
			? registry.get(options.templateVersion ?? bundle?.meta.templateVersion)
			: setOfBundle(bundle, registry);
	const stubs =
		bundle === undefined
			? undefined
			: stubsOf(bundle, set, { enabled: options.virtualize !== false });
	return convertMessages(messages, set, options.diagnostics, stubs);
}

/** The set `bundle` names in `registry`, refused when it is not the one that rendered it. */
export function setOfBundle(
	bundle: { meta: { templateVersion: string; templateFingerprint?: string } },
	registry: TemplateRegistry,
): TemplateSet {
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

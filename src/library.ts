/**
 * The library's entry points, with the template compiler passed in: a
 * library caller may load a session pinned to any set of any templates
 * folder, synchronously, so its service, registry and conversion compile a
 * set that has no fresh precompiled module on the spot. (The command line's
 * render path uses `service/` directly and loads the compiler only when
 * a set needs it.)
 */
import type { ContextBundle, LoadOptions } from "./service/bundle.js";
import { ContextService as Service, type ServiceOptions } from "./service/context-service.js";
import { convertToLlm as convert } from "./service/convert.js";
import { checkKnownKeys, ONE_OFF_OPTIONS } from "./service/options.js";
import type { ContextMessage, LlmMessage } from "./session/messages.js";
import { compileTemplateSet } from "./templates/compile.js";
import { TemplateRegistry as Registry, type RegistryOptions } from "./templates/registry.js";

/** Loads context bundles, keeping each session open for incremental reloads (see `service/context-service.ts`). */
export class ContextService extends Service {
	constructor(options: ServiceOptions = {}) {
		super({ compiler: compileTemplateSet, ...options });
	}
}

/** The template sets of one templates folder, compiled on first use when not precompiled. */
export class TemplateRegistry extends Registry {
	constructor(dir?: string, options: RegistryOptions = {}) {
		super(dir, { compiler: compileTemplateSet, ...options });
	}
}

/** Loads the context bundle of the session log at `path` (a one-off service). */
export async function loadContext(
	path: string,
	options: LoadOptions & ServiceOptions = {},
): Promise<ContextBundle> {
	if (typeof options === "object" && options !== null) checkKnownKeys(options, ONE_OFF_OPTIONS);
	return new ContextService(options).load(path, options);
}

/** The provider-ready form of a bundle's messages (see `service/convert.ts`). */
export function convertToLlm(
	input: ContextBundle | readonly ContextMessage[],
	options: Omit<Parameters<typeof convert>[1] & object, "compiler"> = {},
): LlmMessage[] {
	return convert(input, { compiler: compileTemplateSet, ...options });
}

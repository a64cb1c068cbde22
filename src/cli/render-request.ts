/**
 * `render --format anthropic|openai`: the request body `eval` would send for
 * the leaf, printed as JSON, no key needed and nothing sent.
 */
import { resolve } from "node:path";
import { leafRequest } from "../eval/contexts.js";
import type { Provider } from "../eval/settings.js";
import { STDIN } from "../log/read.js";
import type { ContextBundle, LoadOptions } from "../service/bundle.js";
import type { ContextService } from "../service/context-service.js";
import type { ToolDefinition } from "../view/tools-manifest.js";
import { type Io, printJson } from "./io.js";
import { baseUrlOption, samplingOptions } from "./request-options.js";
import { usageError } from "./usage.js";
import { printWarnings } from "./voice.js";

/** Prints the request body of `session`'s bundle for `provider`, declaring `manifest`'s tools when given; exit code 0. */
export async function renderRequest(
	service: ContextService,
	session: string,
	options: LoadOptions,
	provider: Provider,
	manifest: readonly ToolDefinition[] | undefined,
	values: {
		model: string | undefined;
		"max-tokens": number;
		temperature: number | undefined;
		"base-url": string | undefined;
		pretty: boolean;
		quiet: boolean;
	},
	io: Io,
): Promise<number> {
	const file = session === STDIN ? session : resolve(io.cwd, session);
	const sampling = samplingOptions(values);
	const baseUrl =
		provider === "openai" ? baseUrlOption(values["base-url"], provider, process.env) : undefined;
	// The model named, else the session's at the leaf.
	const named = values.model?.replace(new RegExp(`^${provider}:`), "");
	const settings = (bundle: ContextBundle) => {
		const model = named ?? bundle.meta.model?.modelId;
		if (model === undefined) {
			throw usageError("the session names no model: give one with --model");
		}
		return {
			model: { provider, model },
			...sampling,
			...(baseUrl === undefined ? {} : { baseUrl }),
		};
	};
	const leaf = await leafRequest(service, file, options, settings, manifest);
	printWarnings(io, leaf.bundle.meta.diagnostics, values.quiet);
	printJson(io, leaf.body, { file: leaf.bundle.meta.file, pretty: values.pretty });
	return 0;
}

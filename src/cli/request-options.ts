/**
 * The options that shape a model request, shared by `render --format
 * anthropic|openai` and `eval`: the output cap, the temperature and the
 * endpoint (whose base-URL variable is the SDK's own). The tools manifest
 * is every session command's (tools-option.ts).
 */
import type { Provider } from "../eval/settings.js";
import { usageError } from "./usage.js";

/** The base-URL variable each provider's SDK reads. */
export const BASE_URL_VARIABLES: Record<Provider, string> = {
	anthropic: "ANTHROPIC_BASE_URL",
	openai: "OPENAI_BASE_URL",
};

/** `--max-tokens` and `--temperature` (checked by the option layer) as a request's settings. */
export function samplingOptions(values: {
	"max-tokens": number;
	temperature?: number | undefined;
}): { maxTokens: number; temperature?: number } {
	const maxTokens = values["max-tokens"];
	return values.temperature === undefined
		? { maxTokens }
		: { maxTokens, temperature: values.temperature };
}

/** The endpoint requests go to: `--base-url`, else the SDK's variable, else the provider's own (undefined). */
export function baseUrlOption(
	value: string | undefined,
	provider: Provider,
	env: NodeJS.ProcessEnv,
): string | undefined {
	const url = value ?? nonEmpty(env[BASE_URL_VARIABLES[provider]]);
	if (url === undefined) return undefined;
	try {
		new URL(url);
	} catch {
		throw usageError(
			`${value === undefined ? BASE_URL_VARIABLES[provider] : "--base-url"} is not a URL: ${JSON.stringify(url)}`,
		);
	}
	return url;
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value === "" ? undefined : value;
}

/**
 * The options that shape a model request, shared by `render --format
 * anthropic|openai` and `eval`: the output cap, the temperature, a tools
 * manifest and the endpoint (whose base-URL variable is the SDK's own).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULT_MAX_TOKENS, type Provider } from "../eval/settings.js";
import { ioError } from "../log/read.js";
import { parseToolsManifest, type ToolDefinition } from "../view/tools-manifest.js";
import type { Io } from "./io.js";
import { usageError } from "./usage.js";

/** The base-URL variable each provider's SDK reads. */
export const BASE_URL_VARIABLES: Record<Provider, string> = {
	anthropic: "ANTHROPIC_BASE_URL",
	openai: "OPENAI_BASE_URL",
};

/** `--max-tokens` and `--temperature` read. */
export function samplingOptions(
	values: { "max-tokens"?: string; temperature?: string },
	usage: string,
): { maxTokens: number; temperature?: number } {
	const raw = values["max-tokens"];
	const maxTokens = raw === undefined ? DEFAULT_MAX_TOKENS : Number(raw);
	if (!Number.isInteger(maxTokens) || maxTokens < 1)
		throw usageError("--max-tokens must be a whole number ≥ 1", usage);
	if (values.temperature === undefined) return { maxTokens };
	const temperature = Number(values.temperature);
	if (values.temperature.trim() === "" || !Number.isFinite(temperature) || temperature < 0)
		throw usageError("--temperature must be a number ≥ 0", usage);
	return { maxTokens, temperature };
}

/** The tool definitions of a manifest file, or undefined when none is given. */
export function manifestOption(file: string | undefined, io: Io): ToolDefinition[] | undefined {
	if (file === undefined) return undefined;
	const path = resolve(io.cwd, file);
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw ioError(path, error, "cannot read the tools manifest");
	}
	return parseToolsManifest(text, path);
}

/** The endpoint requests go to: `--base-url`, else the SDK's variable, else the provider's own (undefined). */
export function baseUrlOption(
	value: string | undefined,
	provider: Provider,
	env: NodeJS.ProcessEnv,
	usage: string,
): string | undefined {
	const url = value ?? nonEmpty(env[BASE_URL_VARIABLES[provider]]);
	if (url === undefined) return undefined;
	try {
		new URL(url);
	} catch {
		throw usageError(
			`${value === undefined ? BASE_URL_VARIABLES[provider] : "--base-url"} is not a URL: ${JSON.stringify(url)}`,
			usage,
		);
	}
	return url;
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value === "" ? undefined : value;
}

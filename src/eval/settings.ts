/**
 * What every request of an eval shares: the provider and model, the output
 * cap, the temperature, the tools and the endpoint; the context a request
 * is made from; the open schema of a tool known only by its name.
 */
import { ContextError } from "../errors.js";
import type { LlmMessage } from "../session/messages.js";
import type { ToolDefinition } from "../view/tools-manifest.js";

/** The providers eval speaks to, each through its official SDK. */
export const PROVIDERS = ["anthropic", "openai"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A model at a provider: `anthropic:claude-sonnet-4-5`, `openai:gpt-5`. */
export interface ModelChoice {
	provider: Provider;
	model: string;
}

/** `provider:model-id` read; the model id may itself hold colons (`openai:qwen3:8b`). */
export function parseModel(text: string): ModelChoice {
	const colon = text.indexOf(":");
	const provider = colon < 0 ? "" : text.slice(0, colon);
	const model = colon < 0 ? "" : text.slice(colon + 1);
	if (!(PROVIDERS as readonly string[]).includes(provider) || model === "") {
		throw new ContextError(
			"bad_options",
			`a model is <provider>:<model-id> with a provider among ${PROVIDERS.join(", ")} (got ${JSON.stringify(text)})`,
		);
	}
	return { provider: provider as Provider, model };
}

/** What every request of a run shares. */
export interface RequestSettings {
	model: ModelChoice;
	maxTokens: number;
	temperature?: number;
	tools: readonly ToolDefinition[];
	/**
	 * The base URL the request goes to, when not the provider's own: an
	 * OpenAI-compatible server is given `max_tokens`, OpenAI's own API
	 * `max_completion_tokens` (which its reasoning models require).
	 */
	baseUrl?: string;
}

/** The context of one call: the system prompt and the provider-ready messages. */
export interface RequestContext {
	systemPrompt: string;
	messages: readonly LlmMessage[];
}

/** A request body, as JSON. */
export type RequestBody = Record<string, unknown>;

/** A provider's request: the body of one call's context under the run's settings. */
export type BodyOf = (context: RequestContext, settings: RequestSettings) => RequestBody;

/** The default output cap of a request (`--max-tokens`). */
/** How many times the SDK retries a failed request (its default, said here so the docs can say it). */
export const MAX_RETRIES = 2;
/** How long one attempt may take before it is abandoned (and retried). */
export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_TOKENS = 4096;

/** An object schema any arguments fit: a tool known only by its name. */
export const OPEN_SCHEMA: Record<string, unknown> = Object.freeze({
	type: "object",
	additionalProperties: true,
});

/** A JSON object of a request body. */
export type Json = Record<string, unknown>;

/** `temperature` when one is given, as both providers take it. */
export function temperatureField(settings: RequestSettings): Json {
	return settings.temperature === undefined ? {} : { temperature: settings.temperature };
}

/**
 * `tools`, each as `declare` writes it in its provider's shape from the
 * tool's name (and description, when it has one) and its parameters' schema
 * (any arguments, for a tool known by its name alone); none, no field.
 */
export function toolsField(
	settings: RequestSettings,
	declare: (named: { name: string; description?: string }, schema: Json) => Json,
): Json {
	if (settings.tools.length === 0) return {};
	return {
		tools: settings.tools.map((t) =>
			declare(
				{ name: t.name, ...(t.description === undefined ? {} : { description: t.description }) },
				t.parameters ?? OPEN_SCHEMA,
			),
		),
	};
}

/**
 * What eval asks a model: the provider and model, the request's settings and
 * tools, and the body each provider's API takes for a context (built by
 * `anthropic-request.ts` and `openai-request.ts` from the same turns). Pure:
 * the body is data, so `render --format anthropic|openai` can print exactly
 * what `eval` sends, and a test can hold one against the other.
 */
import { ContextError } from "../errors.js";
import type { LlmMessage } from "../session/messages.js";
import type { ToolDefinition } from "../templates/tools-manifest.js";
import { anthropicBody } from "./anthropic-request.js";
import { openaiBody } from "./openai-request.js";

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

/** The default output cap of a request (`--max-tokens`). */
export const DEFAULT_MAX_TOKENS = 4096;

/** An object schema any arguments fit: a tool known only by its name. */
export const OPEN_SCHEMA: Record<string, unknown> = Object.freeze({
	type: "object",
	additionalProperties: true,
});

/** The body `settings.model.provider`'s API takes for `context`. */
export function requestBody(context: RequestContext, settings: RequestSettings): RequestBody {
	return settings.model.provider === "anthropic"
		? anthropicBody(context, settings)
		: openaiBody(context, settings);
}

/**
 * The tools a call declares when no manifest gives them: the session's
 * inventory, then every other tool the context's messages call, each with
 * an open schema (a provider refuses a context that calls an undeclared tool).
 */
export function sessionTools(
	inventory: readonly string[],
	messages: readonly LlmMessage[],
): ToolDefinition[] {
	const names = new Set(inventory);
	for (const m of messages) {
		if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
		for (const b of m.content as { type?: unknown; name?: unknown }[]) {
			if (b?.type === "toolCall" && typeof b.name === "string" && b.name !== "") names.add(b.name);
		}
	}
	return [...names].map((name) => ({ name }));
}

/**
 * `tools` with every tool the messages call that they lack added, as
 * {@link sessionTools} adds them: a manifest that misses one still gives a
 * request the provider takes.
 */
export function withCalledTools(
	tools: readonly ToolDefinition[],
	messages: readonly LlmMessage[],
): ToolDefinition[] {
	const have = new Set(tools.map((t) => t.name));
	return [...tools, ...sessionTools([], messages).filter((t) => !have.has(t.name))];
}

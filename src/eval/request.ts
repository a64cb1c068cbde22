/**
 * What eval asks a model: the provider and model, the request's settings and
 * tools, and the body each provider's API takes for a context (built by
 * `anthropic-request.ts` and `openai-request.ts` from the same turns). Pure:
 * the body is data, so `render --format anthropic|openai` can print exactly
 * what `eval` sends, and a test can hold one against the other.
 */
import type { LlmMessage } from "../session/messages.js";
import type { ToolDefinition } from "../view/tools-manifest.js";
import { anthropicBody } from "./anthropic-request.js";
import { openaiBody } from "./openai-request.js";
import type { RequestBody, RequestContext, RequestSettings } from "./settings.js";

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

/**
 * A context as an Anthropic Messages API request body: the system prompt as
 * a text block, user and assistant turns, tool calls as `tool_use` blocks,
 * their results as `tool_result` blocks of one user turn, images as base64
 * image blocks, thinking dropped (the request does not turn thinking on,
 * and a recorded signature only holds for the model that wrote it). The
 * cache breakpoints go where a runtime puts them: the system prompt and the
 * last message (`cache_control: {type: "ephemeral"}`).
 */
import { type Block, pairedTurns, type Turn } from "./blocks.js";
import { type BodyOf, type Json, temperatureField, toolsField } from "./settings.js";

const EPHEMERAL = { type: "ephemeral" } as const;

/** The Messages API body of `context`. */
export const anthropicBody: BodyOf = (context, settings) => {
	const messages: { role: "user" | "assistant"; content: Json[] }[] = [];
	for (const turn of pairedTurns(context.messages)) {
		const role = turn.role === "assistant" ? "assistant" : "user";
		const content = contentOf(turn);
		const last = messages.at(-1);
		// Results of one assistant turn's calls share the user turn that follows it.
		if (turn.role === "toolResult" && last?.role === "user" && last.content.every(isResult)) {
			last.content.push(...content);
		} else {
			messages.push({ role, content });
		}
	}
	const final = messages.at(-1)?.content;
	if (final !== undefined && final.length > 0) {
		final[final.length - 1] = { ...final[final.length - 1], cache_control: EPHEMERAL };
	}
	return {
		model: settings.model.model,
		max_tokens: settings.maxTokens,
		...temperatureField(settings),
		...(context.systemPrompt === ""
			? {}
			: { system: [{ type: "text", text: context.systemPrompt, cache_control: EPHEMERAL }] }),
		messages,
		...toolsField(settings, (named, schema) => ({ ...named, input_schema: schema })),
	};
};

function isResult(block: Json): boolean {
	return block.type === "tool_result";
}

function contentOf(turn: Turn): Json[] {
	if (turn.role !== "toolResult") return turn.blocks.map(blockOf);
	return [
		{
			type: "tool_result",
			tool_use_id: toolId(turn.id),
			...(turn.blocks.length === 0 ? {} : { content: turn.blocks.map(blockOf) }),
			...(turn.isError ? { is_error: true } : {}),
		},
	];
}

function blockOf(block: Block): Json {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return {
				type: "image",
				source: { type: "base64", media_type: block.mimeType, data: block.data },
			};
		case "toolCall":
			return { type: "tool_use", id: toolId(block.id), name: block.name, input: block.arguments };
	}
}

/**
 * A tool call's id as the API takes it (letters, digits, `_` and `-`): other
 * characters become `_`, the same for a call and its result.
 */
export function toolId(id: string): string {
	const clean = id.replace(/[^a-zA-Z0-9_-]/g, "_");
	return clean === "" ? "call" : clean;
}

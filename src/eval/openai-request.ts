/**
 * A context as an OpenAI Chat Completions request body: the system prompt
 * as the first message (role `system`), tool calls as the assistant's
 * `tool_calls` (arguments as a JSON string), each result as a message of
 * role `tool`, images as `image_url` parts (data URLs); a tool result's
 * images, which a `tool` message cannot hold, follow its run of results as
 * a user message, as pi-ai sends them. Thinking is dropped. OpenAI's own
 * API is given `max_completion_tokens`, any other endpoint `max_tokens`.
 */
import { type Block, pairedTurns, textOf } from "./blocks.js";
import { type BodyOf, type Json, temperatureField, toolsField } from "./settings.js";

/** The Chat Completions body of `context`. */
export const openaiBody: BodyOf = (context, settings) => {
	const messages: Json[] = [];
	if (context.systemPrompt !== "") messages.push({ role: "system", content: context.systemPrompt });
	let images: Block[] = [];
	const flush = () => {
		if (images.length === 0) return;
		messages.push({
			role: "user",
			content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images.map(part)],
		});
		images = [];
	};
	for (const turn of pairedTurns(context.messages)) {
		if (turn.role === "toolResult") {
			messages.push({ role: "tool", tool_call_id: turn.id, content: textOf(turn.blocks) });
			images.push(...turn.blocks.filter((b) => b.type === "image"));
			continue;
		}
		flush();
		if (turn.role === "user") {
			messages.push({ role: "user", content: userContent(turn.blocks) });
			continue;
		}
		const text = textOf(turn.blocks);
		const calls = turn.blocks.flatMap((b) =>
			b.type === "toolCall"
				? [
						{
							id: b.id,
							type: "function",
							function: { name: b.name, arguments: JSON.stringify(b.arguments) },
						},
					]
				: [],
		);
		messages.push({
			role: "assistant",
			content: text === "" ? null : text,
			...(calls.length === 0 ? {} : { tool_calls: calls }),
		});
	}
	flush();
	const maxField = ownApi(settings.baseUrl) ? "max_completion_tokens" : "max_tokens";
	return {
		model: settings.model.model,
		messages,
		[maxField]: settings.maxTokens,
		...temperatureField(settings),
		...toolsField(settings, (named, schema) => ({
			type: "function",
			function: { ...named, parameters: schema },
		})),
	};
};

/** A user message's content: a string when it is one text, else parts. */
function userContent(blocks: readonly Block[]): string | Json[] {
	const [only] = blocks;
	if (blocks.length === 1 && only?.type === "text") return only.text;
	return blocks.flatMap((b) => (b.type === "toolCall" ? [] : [part(b)]));
}

function part(block: Block): Json {
	if (block.type === "image") {
		return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
	}
	return { type: "text", text: block.type === "text" ? block.text : "" };
}

/** Whether requests go to OpenAI's own API (no other base URL given). */
function ownApi(baseUrl: string | undefined): boolean {
	if (baseUrl === undefined) return true;
	try {
		return new URL(baseUrl).hostname === "api.openai.com";
	} catch {
		return false;
	}
}

/**
 * The provider-ready messages (pi's shapes) read block by block, for the
 * request mappings: a message's text, images and tool calls, and the
 * pairing every provider demands of tool calls and their results. An
 * assistant's tool call with no result is given one (an error, "No result
 * provided"), as pi-ai's transformMessages does before any provider sees
 * the messages; a result whose call is not in the context (cut off by a
 * compaction) reaches the model as a user's text naming the tool, since no
 * provider takes a result without its call.
 */
import type { LlmMessage } from "../session/messages.js";

/** A block of a message's content, as pi stores it. */
export type Block =
	| { type: "text"; text: string }
	| { type: "image"; data: string; mimeType: string }
	| { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

/** What a tool call with no result is answered with (pi-ai's words). */
export const NO_RESULT = "No result provided";

/** The blocks of `content` a request can carry (thinking and unknown blocks dropped; empty text too). */
export function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
	if (!Array.isArray(content)) return [];
	const out: Block[] = [];
	for (const b of content as Record<string, unknown>[]) {
		if (b === null || typeof b !== "object") continue;
		if (b.type === "text" && typeof b.text === "string" && b.text !== "") {
			out.push({ type: "text", text: b.text });
		} else if (b.type === "image" && typeof b.data === "string") {
			const mimeType = typeof b.mimeType === "string" ? b.mimeType : "image/png";
			out.push({ type: "image", data: b.data, mimeType });
		} else if (b.type === "toolCall" && typeof b.name === "string") {
			const args = b.arguments;
			out.push({
				type: "toolCall",
				id: typeof b.id === "string" ? b.id : "",
				name: b.name,
				arguments:
					args !== null && typeof args === "object" && !Array.isArray(args)
						? (args as Record<string, unknown>)
						: {},
			});
		}
	}
	return out;
}

/** The text blocks of `blocks`, joined with blank lines. */
export function textOf(blocks: readonly Block[]): string {
	return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
}

/** One message of a paired context: a user's, an assistant's, or one tool call's result. */
export type Turn =
	| { role: "user"; blocks: Block[] }
	| { role: "assistant"; blocks: Block[] }
	| { role: "toolResult"; id: string; name: string; blocks: Block[]; isError: boolean };

/**
 * The messages as turns, every tool call paired with a result right after
 * its assistant message's run of results, every result with its call;
 * messages left with nothing to send are left out.
 */
export function pairedTurns(messages: readonly LlmMessage[]): Turn[] {
	const turns: Turn[] = [];
	let open: { id: string; name: string }[] = [];
	const known = new Set<string>();
	const close = () => {
		for (const call of open) {
			turns.push({
				role: "toolResult",
				id: call.id,
				name: call.name,
				blocks: [{ type: "text", text: NO_RESULT }],
				isError: true,
			});
		}
		open = [];
	};
	for (const m of messages) {
		const blocks = blocksOf(m.content);
		if (m.role === "toolResult") {
			const id = typeof m.toolCallId === "string" ? m.toolCallId : "";
			const name = typeof m.toolName === "string" ? m.toolName : "";
			const at = open.findIndex((c) => c.id === id);
			if (at >= 0 && known.has(id)) {
				open.splice(at, 1);
				turns.push({ role: "toolResult", id, name, blocks, isError: m.isError === true });
			} else {
				close();
				const head = `Result of tool ${name === "" ? "(unnamed)" : name} (call ${id === "" ? "unknown" : id}), whose call is not in the context:`;
				turns.push({ role: "user", blocks: [{ type: "text", text: head }, ...blocks] });
			}
			continue;
		}
		close();
		if (blocks.length === 0) continue;
		if (m.role === "assistant") {
			turns.push({ role: "assistant", blocks });
			for (const b of blocks) {
				if (b.type !== "toolCall") continue;
				open.push({ id: b.id, name: b.name });
				known.add(b.id);
			}
		} else {
			turns.push({ role: "user", blocks: blocks.filter((b) => b.type !== "toolCall") });
		}
	}
	close();
	return turns;
}

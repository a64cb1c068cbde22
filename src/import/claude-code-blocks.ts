/**
 * Claude Code's message content in our AgentMessage shapes: text, thinking
 * and tool_use blocks of an assistant response; text, image and tool_result
 * blocks of a user record; usage and stop reasons; which records are
 * bookkeeping, and titles. Pure.
 */
import type { Accounting } from "./accounting.js";
import { badCount, isObj, type Obj, str, tokenCount } from "./records.js";

/** Records that carry no conversation: kept whole as `custom` entries. */
export const BOOKKEEPING = new Set([
	"attachment",
	"system",
	"progress",
	"queue-operation",
	"file-history-snapshot",
	"last-prompt",
	"permission-mode",
	"mode",
	"agent-name",
	"frame-link",
	"pr-link",
	"started",
	"result",
	"relocated",
	"worktree-state",
	"bridge-session",
	"atis-latch",
	"summary",
	"custom-title",
	"ai-title",
]);

/** An Anthropic image block (`source.type` base64) as ours; undefined for another source. */
export function imageBlock(block: Obj): Obj | undefined {
	const source = isObj(block.source) ? block.source : undefined;
	if (source === undefined) return undefined;
	if (source.type === "base64" && typeof source.data === "string") {
		return { type: "image", data: source.data, mimeType: str(source, "media_type") ?? "image/png" };
	}
	return undefined;
}

/** User-side content (a string, or text and image blocks) as ours. */
export function userContent(
	content: unknown,
	acc: Accounting,
	line: number,
): string | Obj[] | undefined {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return undefined;
	const out: Obj[] = [];
	for (const block of content) {
		if (!isObj(block)) continue;
		if (block.type === "text" && typeof block.text === "string") {
			out.push({ type: "text", text: block.text });
		} else if (block.type === "image") {
			const image = imageBlock(block);
			if (image !== undefined) out.push(image);
			else {
				out.push({ type: "text", text: "[image: not stored in the session]" });
				acc.warn(
					line,
					"an image whose bytes the session does not hold: a placeholder text instead",
				);
			}
		} else if (block.type !== "tool_result") {
			out.push({ type: "text", text: JSON.stringify(block) });
			acc.warn(
				line,
				`a user content block of type ${JSON.stringify(block.type)}: kept as its JSON text`,
			);
		}
	}
	return out;
}

/** An assistant content block as ours, or undefined (with a warning) when it has no counterpart. */
export function assistantBlock(block: unknown, acc: Accounting, line: number): Obj | undefined {
	if (!isObj(block)) return undefined;
	switch (block.type) {
		case "text":
			return { type: "text", text: str(block, "text") ?? "" };
		case "thinking": {
			const signature = str(block, "signature");
			return {
				type: "thinking",
				thinking: str(block, "thinking") ?? "",
				...(signature === undefined ? {} : { thinkingSignature: signature }),
			};
		}
		case "redacted_thinking":
			return { type: "thinking", thinking: "", redacted: true, data: block.data };
		case "tool_use":
		case "server_tool_use": {
			const input = block.input;
			// Arguments are an object: none given is {}, anything else is kept under "input".
			if (!isObj(input) && input !== undefined) {
				acc.warn(
					line,
					`a tool call whose input is ${input === null ? "null" : `not an object (${typeof input})`}: its arguments are ${input === null ? "{}" : '{"input": …}'}`,
				);
			}
			return {
				type: "toolCall",
				id: str(block, "id") ?? "",
				name: str(block, "name") ?? "",
				arguments: isObj(input) ? input : input == null ? {} : { input },
			};
		}
		default:
			acc.warn(
				line,
				`an assistant content block of type ${JSON.stringify(block.type)}: kept as its JSON text`,
			);
			return { type: "text", text: JSON.stringify(block) };
	}
}

/** A tool_result block's content as text and image blocks. */
export function resultContent(content: unknown, acc: Accounting, line: number): Obj[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	if (!Array.isArray(content))
		return content == null ? [] : [{ type: "text", text: JSON.stringify(content) }];
	const out: Obj[] = [];
	for (const block of content) {
		if (!isObj(block)) continue;
		if (block.type === "text") out.push({ type: "text", text: str(block, "text") ?? "" });
		else if (block.type === "image") {
			const image = imageBlock(block);
			if (image !== undefined) out.push(image);
			else acc.warn(line, "a tool result image whose bytes the session does not hold: left out");
		} else out.push({ type: "text", text: JSON.stringify(block) });
	}
	return out;
}

/** Anthropic usage as ours. */
export function usageOf(usage: unknown, warn?: (reason: string) => void): Obj {
	const u = isObj(usage) ? usage : {};
	const n = (key: string) => tokenCount(u[key], (v) => warn?.(badCount(key, v)));
	const input = n("input_tokens");
	const output = n("output_tokens");
	const cacheRead = n("cache_read_input_tokens");
	const cacheWrite = n("cache_creation_input_tokens");
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Anthropic's stop reason in pi's words. */
export function stopReasonOf(reason: unknown, hasToolCalls: boolean): string {
	switch (reason) {
		case "tool_use":
			return "toolUse";
		case "max_tokens":
			return "length";
		case "end_turn":
		case "stop_sequence":
			return "stop";
		default:
			return hasToolCalls ? "toolUse" : "stop";
	}
}

/** A record's title, when it is one (a `summary` is checked against its leaf later). */
export function titleOf(value: Obj, type: string): string | undefined {
	if (type === "custom-title") return str(value, "customTitle");
	if (type === "ai-title") return str(value, "aiTitle");
	if (type === "summary") return str(value, "summary");
	return undefined;
}

/** The text blocks of content, joined. */
export function textOf(content: Obj[]): string {
	return content.map((b) => (b.type === "text" ? String(b.text) : "")).join("");
}

/** A compact summary record's text. */
export function summaryText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).join("\n");
}

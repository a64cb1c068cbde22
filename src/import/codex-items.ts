/**
 * Codex's Responses API items in our AgentMessage shapes: message content,
 * reasoning summaries (as thinking), tool calls of every kind, and tool
 * outputs in each form Codex wrote them (a plain string, a JSON string with
 * `metadata.exit_code`, a freeform text headed `Exit code: N`, a list of
 * content items, an object with `success`); which items are calls, outputs,
 * side records or echoes; usage. Pure.
 */
import type { Accounting } from "./accounting.js";
import { badCount, isObj, type Obj, str, tokenCount } from "./records.js";

/** The items that call a tool. */
export const CALLS = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
export const OUTPUTS = new Set([
	"function_call_output",
	"custom_tool_call_output",
	"local_shell_call_output",
]);
/** Items the model did not see as conversation, or that have no counterpart: kept as `custom`. */
export const SIDE_ITEMS = new Set([
	"ghost_snapshot",
	"web_search_call",
	"tool_search_call",
	"tool_search_output",
	"image_generation_call",
	"agent_message",
]);
/** Events that repeat a response item (or carry what is read elsewhere). */
export const ECHOES = new Set([
	"user_message",
	"agent_message",
	"agent_reasoning",
	"agent_reasoning_raw_content",
]);

/** Text and image items of a message as our blocks. */
export function messageBlocks(content: unknown, acc: Accounting, line: number): Obj[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	if (!Array.isArray(content)) return [];
	const out: Obj[] = [];
	for (const item of content) {
		if (!isObj(item)) continue;
		const text = str(item, "text");
		if (text !== undefined) out.push({ type: "text", text });
		else if (item.type === "input_image") out.push(imageOf(item, acc, line));
		else {
			out.push({ type: "text", text: JSON.stringify(item) });
			acc.warn(line, `a content item of type ${JSON.stringify(item.type)}: kept as its JSON text`);
		}
	}
	return out;
}

/** An `input_image` item: a data URL becomes an image block; anything else a placeholder. */
function imageOf(item: Obj, acc: Accounting, line: number): Obj {
	const url = str(item, "image_url") ?? "";
	const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
	if (match !== null) return { type: "image", data: match[2], mimeType: match[1] };
	acc.warn(line, "an image given by URL or not stored: a placeholder text instead");
	return { type: "text", text: url === "" ? "[image]" : `[image: ${url}]` };
}

/** The text of a reasoning item: its summaries, else its plain reasoning text. */
export function reasoningText(item: Obj): string | undefined {
	const parts = (list: unknown) =>
		Array.isArray(list)
			? list.flatMap((p) => (isObj(p) && typeof p.text === "string" ? [p.text] : []))
			: [];
	const summary = parts(item.summary);
	if (summary.length > 0) return summary.join("\n\n");
	const content = parts(item.content);
	return content.length > 0 ? content.join("\n\n") : undefined;
}

/** A tool call item as a toolCall block. */
export function toolCallOf(item: Obj): Obj {
	const id = str(item, "call_id") ?? str(item, "id") ?? "";
	switch (item.type) {
		case "function_call":
			return {
				type: "toolCall",
				id,
				name: str(item, "name") ?? "",
				arguments: argumentsOf(item.arguments),
			};
		case "custom_tool_call":
			return {
				type: "toolCall",
				id,
				name: str(item, "name") ?? "",
				arguments: { input: item.input ?? "" },
			};
		default:
			return {
				type: "toolCall",
				id,
				name: "local_shell",
				arguments: isObj(item.action) ? item.action : {},
			};
	}
}

function argumentsOf(value: unknown): Obj {
	if (isObj(value)) return value;
	if (typeof value !== "string") return {};
	try {
		const parsed: unknown = JSON.parse(value);
		return isObj(parsed) ? parsed : { arguments: value };
	} catch {
		return { arguments: value };
	}
}

/** A tool output as our content, with its exit code and error flag when the output tells them. */
export function outputOf(
	output: unknown,
	acc: Accounting,
	line: number,
): { content: Obj[]; exitCode?: number; isError: boolean } {
	if (Array.isArray(output)) return { content: messageBlocks(output, acc, line), isError: false };
	if (isObj(output)) {
		const inner = outputOf(output.content ?? output.output ?? "", acc, line);
		return { ...inner, isError: inner.isError || output.success === false };
	}
	const text = typeof output === "string" ? output : JSON.stringify(output ?? "");
	const structured = jsonOutput(text);
	if (structured !== undefined) {
		const code = structured.exitCode;
		return {
			content: [{ type: "text", text: structured.output }],
			...(code === undefined ? {} : { exitCode: code }),
			isError: code !== undefined && code !== 0,
		};
	}
	const head = /^Exit code: (-?\d+)\n/.exec(text);
	const code = head === null ? undefined : Number(head[1]);
	return {
		content: [{ type: "text", text }],
		...(code === undefined ? {} : { exitCode: code }),
		isError: code !== undefined && code !== 0,
	};
}

/** The shell tool's JSON string form: `{"output": …, "metadata": {"exit_code": N}}`. */
function jsonOutput(text: string): { output: string; exitCode?: number } | undefined {
	if (!text.startsWith('{"output"')) return undefined;
	try {
		const value: unknown = JSON.parse(text);
		if (!isObj(value) || typeof value.output !== "string") return undefined;
		const meta = isObj(value.metadata) ? value.metadata : {};
		return typeof meta.exit_code === "number"
			? { output: value.output, exitCode: meta.exit_code }
			: { output: value.output };
	} catch {
		return undefined;
	}
}

/** What a user-role message is: the person's turn, or context Codex sent in the person's name. */
export function userKind(blocks: readonly Obj[]): "user" | "environment_context" | "instructions" {
	const first = blocks[0];
	const text = first !== undefined && typeof first.text === "string" ? first.text.trimStart() : "";
	if (text.startsWith("<environment_context>")) return "environment_context";
	if (text.startsWith("<user_instructions>") || text.startsWith("# AGENTS.md instructions"))
		return "instructions";
	return "user";
}

/**
 * Codex usage (`last_token_usage`) as ours. `reasoning` (the call's
 * `reasoning_output_tokens`, part of its output) is kept when recorded: the
 * encrypted reasoning Codex sends back with later calls is that size, and
 * billed as their input.
 */
export function usageOf(usage: Obj | undefined, warn?: (reason: string) => void): Obj {
	const n = (key: string) => tokenCount(usage?.[key], (v) => warn?.(badCount(key, v)));
	const cached = n("cached_input_tokens");
	const input = Math.max(0, n("input_tokens") - cached);
	const output = n("output_tokens");
	const reasoning = n("reasoning_output_tokens");
	return {
		input,
		output,
		cacheRead: cached,
		cacheWrite: 0,
		totalTokens: input + output + cached,
		...(reasoning > 0 ? { reasoning } : {}),
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

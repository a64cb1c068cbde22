/**
 * Codex's response items: messages (the model's text to the assistant
 * message being assembled, the person's and the context Codex sends in
 * their name to user and `custom_message` entries), reasoning and tool
 * calls (parts of the assistant message), tool outputs (tool results
 * matched by `call_id`), and the items kept as they are.
 */

import {
	CALLS,
	messageBlocks,
	OUTPUTS,
	outputOf,
	reasoningText,
	SIDE_ITEMS,
	toolCallOf,
	userKind,
} from "./codex-items.js";
import type { CodexState } from "./codex-state.js";
import { entry, millis } from "./entries.js";
import { type Obj, str } from "./records.js";

/** One response item, to the converter of its type. */
export function item(run: CodexState, item: Obj, line: number, prefix: string): void {
	const type = typeof item.type === "string" ? item.type : "(no type)";
	const name = `${prefix}${type}`;
	if (type === "message") {
		message(run, item, line, name);
		return;
	}
	if (type === "reasoning") {
		const text = reasoningText(item);
		if (text !== undefined) run.assistantPart({ type: "thinking", thinking: text }, line);
		run.acc.mapped(name);
		return;
	}
	if (CALLS.has(type)) {
		const call = toolCallOf(item);
		run.calls.set(call.id as string, call.name as string);
		run.assistantPart(call, line);
		run.acc.mapped(name);
		return;
	}
	if (OUTPUTS.has(type)) {
		output(run, item, line, name);
		return;
	}
	if (type === "compaction" || type === "compaction_summary") {
		run.compaction("", true, line, {});
		run.acc.mapped(name);
		return;
	}
	if (SIDE_ITEMS.has(type)) {
		run.keep(type, item, line);
		return;
	}
	run.acc.warned(name, line, `skipped: unknown item type ${JSON.stringify(type)}`);
}

/** A message item: the assistant's to the message being assembled, else a user or custom message. */
function message(run: CodexState, item: Obj, line: number, name: string): void {
	const role = str(item, "role") ?? "";
	const blocks = messageBlocks(item.content, run.acc, line);
	if (role === "assistant") {
		for (const b of blocks) run.assistantPart(b, line);
		run.acc.mapped(name);
		return;
	}
	run.close();
	const kind = role === "user" ? userKind(blocks) : role;
	if (kind === "user") {
		run.turns.push({ parent: run.tip });
		run.push(
			entry("message", `cx-${line}`, run.tip, run.time, {
				message: { role: "user", content: blocks, timestamp: millis(run.time) },
			}),
			line,
		);
	} else {
		run.push(
			entry("custom_message", `cx-${line}`, run.tip, run.time, {
				customType: `codex/${kind}`,
				content: blocks,
				display: false,
			}),
			line,
		);
	}
	run.acc.mapped(`${name} (${kind})`);
}

/** A tool output: a tool result, named after its call. */
function output(run: CodexState, item: Obj, line: number, name: string): void {
	run.close();
	const callId = str(item, "call_id") ?? "";
	const toolName = run.calls.get(callId);
	if (toolName === undefined)
		run.acc.warn(
			line,
			`a tool output for ${JSON.stringify(callId)}, which no earlier call made: its tool name is unknown`,
		);
	const out = outputOf(item.output, run.acc, line);
	run.push(
		entry("message", `cx-${line}`, run.tip, run.time, {
			message: {
				role: "toolResult",
				toolCallId: callId,
				toolName: toolName ?? "unknown",
				content: out.content,
				isError: out.isError,
				...(out.exitCode === undefined ? {} : { details: { exitCode: out.exitCode } }),
				timestamp: millis(run.time),
			},
		}),
		line,
	);
	run.acc.mapped(name);
}

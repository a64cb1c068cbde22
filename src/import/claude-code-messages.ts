/**
 * Claude Code's conversation records: an assistant record (the records of
 * one API response, same `message.id`, merged into one assistant message,
 * a model switch first becoming a `model_change`) and a user record (its
 * tool results, each after its call's response, then its text).
 */
import {
	assistantBlock,
	resultContent,
	stopReasonOf,
	textOf,
	usageOf,
	userContent,
} from "./claude-code-blocks.js";
import { compactSummary } from "./claude-code-records.js";
import type { ClaudeCodeState, Group } from "./claude-code-state.js";
import { entry, millis } from "./entries.js";
import { isObj, type Obj, obj, str } from "./records.js";

/** An assistant record: a new assistant message, or more of the response it continues. */
export function assistant(
	run: ClaudeCodeState,
	value: Obj,
	uuid: string,
	line: number,
	time: string,
): void {
	const message = value.message as Obj;
	const messageId = str(message, "id");
	const parent = run.parentOf(value, line);
	const group = run.blockAbove(parent);
	const blocks: unknown[] = Array.isArray(message.content) ? message.content : [];
	const content = blocks.flatMap((b): Obj[] => {
		const block = assistantBlock(b, run.acc, line);
		return block === undefined ? [] : [block];
	});
	for (const b of content)
		if (b.type === "toolCall") run.toolNames.set(b.id as string, b.name as string);
	if (group !== undefined && messageId !== undefined && group.messageId === messageId) {
		// One response, even when streamed tool calls ran (and wrote their results) before it ended.
		const e = group.entry;
		const m = e.message as Obj;
		(m.content as Obj[]).push(...content);
		m.usage = usageOf(message.usage, (reason) => run.acc.warn(line, reason));
		m.stopReason = stopReasonOf(
			message.stop_reason,
			(m.content as Obj[]).some((b) => b.type === "toolCall"),
		);
		run.alias.set(uuid, e.id);
		run.acc.mapped("assistant");
		run.lastConversation = group.tail;
		return;
	}
	let hang = run.attach(parent);
	const model = str(message, "model");
	if (model !== undefined && model !== "<synthetic>" && model !== run.model) {
		run.model = model;
		const change = entry("model_change", `${uuid}:model`, hang, time, {
			provider: "anthropic",
			modelId: model,
		});
		run.push(change, line);
		run.anchor.set(change.id, hang === null ? null : (run.anchor.get(hang) ?? null));
		hang = change.id;
	}
	const synthetic = model === "<synthetic>" || value.isApiErrorMessage === true;
	const hasCalls = content.some((b) => b.type === "toolCall");
	const e = entry("message", uuid, hang, time, {
		message: {
			role: "assistant",
			content,
			api: "anthropic-messages",
			provider: "anthropic",
			model: model ?? run.model ?? "unknown",
			usage: usageOf(message.usage, (reason) => run.acc.warn(line, reason)),
			stopReason: synthetic ? "error" : stopReasonOf(message.stop_reason, hasCalls),
			...(synthetic ? { errorMessage: textOf(content) } : {}),
			// The response's id, as pi keeps it: a response the transcript holds twice is billed once.
			...(messageId === undefined ? {} : { responseId: messageId }),
			timestamp: millis(time),
		},
	});
	run.push(e, line);
	const g: Group = { entry: e, messageId, tail: uuid };
	run.blockOf.set(uuid, g);
	run.conversationAt(uuid);
	run.acc.mapped("assistant");
}

/** A user record: its tool results after their calls' response, then its text (a compact summary is a compaction's). */
export function user(
	run: ClaudeCodeState,
	value: Obj,
	uuid: string,
	line: number,
	time: string,
): void {
	const message = value.message as Obj;
	const parent = run.parentOf(value, line);
	if (value.isCompactSummary === true) {
		compactSummary(run, value, uuid, parent, line, time);
		return;
	}
	const group = run.blockAbove(parent);
	let hang = run.attach(parent);
	const blocks: unknown[] = Array.isArray(message.content) ? message.content : [];
	const results = blocks.filter((b) => isObj(b) && b.type === "tool_result") as Obj[];
	let last: string | undefined;
	const before = run.entries.length;
	results.forEach((block, k) => {
		const id = k === 0 ? uuid : `${uuid}:${k}`;
		const callId = str(block, "tool_use_id") ?? "";
		const toolName = run.toolNames.get(callId);
		if (toolName === undefined)
			run.acc.warn(
				line,
				`a tool result for ${JSON.stringify(callId)}, which no earlier call made: its tool name is unknown`,
			);
		const tur = value.toolUseResult;
		const e = entry("message", id, hang, time, {
			message: {
				role: "toolResult",
				toolCallId: callId,
				toolName: toolName ?? "unknown",
				content: resultContent(block.content, run.acc, line),
				isError: block.is_error === true,
				...(tur === undefined || results.length > 1 ? {} : { details: tur }),
				timestamp: millis(time),
			},
		});
		run.push(e, line);
		hang = id;
		last = id;
	});
	const rest =
		results.length === 0
			? userContent(message.content, run.acc, line)
			: userContent(
					blocks.filter((b) => !(isObj(b) && b.type === "tool_result")),
					run.acc,
					line,
				);
	if (rest !== undefined && (typeof rest === "string" || rest.length > 0)) {
		const id = results.length === 0 ? uuid : `${uuid}:text`;
		run.push(
			entry("message", id, hang, time, {
				message: { role: "user", content: rest, timestamp: millis(time) },
			}),
			line,
		);
		last = id;
	}
	if (last === undefined) {
		run.push(
			entry("message", uuid, hang, time, {
				message: { role: "user", content: "", timestamp: millis(time) },
			}),
			line,
		);
		run.acc.warn(line, "a user record with no content: an empty user message");
		last = uuid;
	}
	const agentId = obj(value, "toolUseResult")?.agentId;
	if (typeof agentId === "string") run.subagents.push({ agentId, line });
	const created = run.entries.length - before;
	const made = run.entries.slice(run.entries.length - created);
	for (const e of made) run.anchor.set(e.id, e.id);
	run.alias.set(uuid, last);
	if (group !== undefined && results.length > 0) {
		group.tail = last;
		for (const e of made) run.blockOf.set(e.id, group);
	}
	run.lastConversation = last;
	run.acc.mapped("user");
}

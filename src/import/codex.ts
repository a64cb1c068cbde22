/**
 * Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) to our
 * entries. A rollout is one linear chain: `session_meta` gives the header,
 * `turn_context` model changes become `model_change`, the items of one model
 * response (reasoning, text, tool calls) one assistant message, tool outputs
 * tool results matched by `call_id`, `compacted` a compaction, and
 * `thread_rolled_back` re-parents what follows into a real branch. The
 * context Codex sends in the person's name (developer, environment and
 * instruction messages) becomes `custom_message` entries the model sees as
 * sent. Both the envelope layout and the bare pre-2025-09 one are read. Pure.
 */
import type { Accounting, SourceRecord } from "./accounting.js";
import {
	CALLS,
	ECHOES,
	messageBlocks,
	OUTPUTS,
	outputOf,
	reasoningText,
	SIDE_ITEMS,
	toolCallOf,
	usageOf,
	userKind,
} from "./codex-items.js";
import {
	type Converted,
	customEntry,
	entry,
	header,
	isoTime,
	millis,
	type OutEntry,
} from "./entries.js";
import { isObj, type Obj, obj, str } from "./records.js";

/** What the remote compaction's summary says, since its text is encrypted. */
export const ENCRYPTED_SUMMARY =
	"[Codex compacted the conversation on its server; the summary is encrypted and cannot be read here]";

class CodexImport {
	readonly entries: OutEntry[] = [];
	readonly lines: number[] = [];
	private tip: string | null = null;
	private open: OutEntry | undefined;
	private lastAssistant: OutEntry | undefined;
	/** Whether the last assistant message has its call's usage already. */
	private lastHasUsage = false;
	/** A call's usage recorded before its output (Codex 0.58): the next assistant message's. */
	private pendingUsage: Obj | undefined;
	/** The running total of the last usage seen: a count written twice is one call. */
	private lastTotal: string | undefined;
	private readonly calls = new Map<string, string>();
	/** The turns on the current branch: each user message and the entry it hangs on. */
	private readonly turns: { parent: string | null }[] = [];
	private model: string | undefined;
	private effort: string | undefined;
	private provider = "openai";
	private time: string;
	head: Obj | undefined;
	readonly forks: Obj[] = [];

	constructor(
		private readonly acc: Accounting,
		start: string,
	) {
		this.time = start;
	}

	private push(e: OutEntry, line: number): OutEntry {
		this.entries.push(e);
		this.lines.push(line);
		this.tip = e.id;
		return e;
	}

	private close(): void {
		this.open = undefined;
	}

	record({ value, line }: SourceRecord, legacy: boolean): void {
		if (!isObj(value)) {
			this.acc.warned("(not an object)", line, "skipped: a record that is not a JSON object");
			return;
		}
		this.time = isoTime(value.timestamp, this.time);
		if (legacy) {
			if (
				line === 1 ||
				(this.head === undefined && typeof value.id === "string" && value.type === undefined)
			)
				this.legacyHeader(value, line);
			else if (value.record_type === "state") this.keep("state", value, line);
			else this.item(value, line, "");
			return;
		}
		const type = typeof value.type === "string" ? value.type : "(no type)";
		const payload = obj(value, "payload");
		if (payload === undefined) {
			this.acc.warned(type, line, `skipped: unknown record type ${JSON.stringify(type)}`);
			return;
		}
		switch (type) {
			case "session_meta": {
				this.sessionMeta(payload, line);
				return;
			}
			case "turn_context": {
				this.turnContext(payload, line);
				return;
			}
			case "response_item": {
				this.item(payload, line, "response_item/");
				return;
			}
			case "compacted": {
				this.compacted(payload, line);
				return;
			}
			case "event_msg": {
				this.event(payload, line);
				return;
			}
			default:
				this.acc.warned(type, line, `skipped: unknown record type ${JSON.stringify(type)}`);
		}
	}

	private keep(type: string, data: unknown, line: number): void {
		this.push(customEntry(`codex/${type}`, `cx-${line}`, this.tip, this.time, data), line);
		this.acc.custom(type);
	}

	private legacyHeader(value: Obj, line: number): void {
		this.head = header(str(value, "id") ?? "", this.time, "");
		this.push(customEntry("codex/session_meta", `cx-${line}`, this.tip, this.time, value), line);
		this.acc.mapped("header (pre-envelope)");
	}

	private sessionMeta(payload: Obj, line: number): void {
		const fork = str(payload, "forked_from_id") ?? str(payload, "parent_thread_id");
		if (this.head === undefined) {
			this.head = header(
				str(payload, "id") ?? "",
				isoTime(payload.timestamp, this.time),
				str(payload, "cwd") ?? "",
				fork === undefined ? {} : { parentSession: fork },
			);
			this.provider = str(payload, "model_provider") ?? this.provider;
			this.push(
				customEntry("codex/session_meta", `cx-${line}`, this.tip, this.time, payload),
				line,
			);
			this.acc.mapped("session_meta");
			return;
		}
		if (fork !== undefined) this.forks.push({ id: payload.id ?? null, from: fork, line });
		this.keep("session_meta", payload, line);
	}

	private turnContext(payload: Obj, line: number): void {
		const collab = obj(payload, "collaboration_mode");
		const model = str(payload, "model") ?? str(obj(collab ?? {}, "settings") ?? {}, "model");
		if (model !== undefined && model !== this.model) {
			this.model = model;
			this.push(
				entry("model_change", `cx-${line}-model`, this.tip, this.time, {
					provider: this.provider,
					modelId: model,
				}),
				line,
			);
		}
		const effort = str(payload, "effort");
		if (effort !== undefined && effort !== this.effort) {
			this.effort = effort;
			this.push(
				entry("thinking_level_change", `cx-${line}-effort`, this.tip, this.time, {
					thinkingLevel: effort,
				}),
				line,
			);
		}
		this.acc.mapped("turn_context");
	}

	private item(item: Obj, line: number, prefix: string): void {
		const type = typeof item.type === "string" ? item.type : "(no type)";
		const name = `${prefix}${type}`;
		if (type === "message") {
			this.message(item, line, name);
			return;
		}
		if (type === "reasoning") {
			const text = reasoningText(item);
			if (text !== undefined) this.assistantPart({ type: "thinking", thinking: text }, line);
			this.acc.mapped(name);
			return;
		}
		if (CALLS.has(type)) {
			const call = toolCallOf(item);
			this.calls.set(call.id as string, call.name as string);
			this.assistantPart(call, line);
			this.acc.mapped(name);
			return;
		}
		if (OUTPUTS.has(type)) {
			this.output(item, line, name);
			return;
		}
		if (type === "compaction" || type === "compaction_summary") {
			this.compaction("", true, line, {});
			this.acc.mapped(name);
			return;
		}
		if (SIDE_ITEMS.has(type)) {
			this.keep(type, item, line);
			return;
		}
		this.acc.warned(name, line, `skipped: unknown item type ${JSON.stringify(type)}`);
	}

	private assistantPart(block: Obj, line: number): void {
		if (this.open === undefined) {
			this.open = this.push(
				entry("message", `cx-${line}`, this.tip, this.time, {
					message: {
						role: "assistant",
						content: [],
						api: "openai-responses",
						provider: this.provider,
						model: this.model ?? "unknown",
						usage: usageOf(undefined),
						stopReason: "stop",
						timestamp: millis(this.time),
					},
				}),
				line,
			);
			this.lastAssistant = this.open;
			this.lastHasUsage = this.pendingUsage !== undefined;
			if (this.pendingUsage !== undefined) {
				(this.open.message as Obj).usage = usageOf(this.pendingUsage);
				this.pendingUsage = undefined;
			}
		}
		const message = this.open.message as Obj;
		(message.content as Obj[]).push(block);
		if (block.type === "toolCall") message.stopReason = "toolUse";
	}

	private message(item: Obj, line: number, name: string): void {
		const role = str(item, "role") ?? "";
		const blocks = messageBlocks(item.content, this.acc, line);
		if (role === "assistant") {
			for (const b of blocks) this.assistantPart(b, line);
			this.acc.mapped(name);
			return;
		}
		this.close();
		const kind = role === "user" ? userKind(blocks) : role;
		if (kind === "user") {
			this.turns.push({ parent: this.tip });
			this.push(
				entry("message", `cx-${line}`, this.tip, this.time, {
					message: { role: "user", content: blocks, timestamp: millis(this.time) },
				}),
				line,
			);
		} else {
			this.push(
				entry("custom_message", `cx-${line}`, this.tip, this.time, {
					customType: `codex/${kind}`,
					content: blocks,
					display: false,
				}),
				line,
			);
		}
		this.acc.mapped(`${name} (${kind})`);
	}

	private output(item: Obj, line: number, name: string): void {
		this.close();
		const callId = str(item, "call_id") ?? "";
		const toolName = this.calls.get(callId);
		if (toolName === undefined)
			this.acc.warn(
				line,
				`a tool output for ${JSON.stringify(callId)}, which no earlier call made: its tool name is unknown`,
			);
		const out = outputOf(item.output, this.acc, line);
		this.push(
			entry("message", `cx-${line}`, this.tip, this.time, {
				message: {
					role: "toolResult",
					toolCallId: callId,
					toolName: toolName ?? "unknown",
					content: out.content,
					isError: out.isError,
					...(out.exitCode === undefined ? {} : { details: { exitCode: out.exitCode } }),
					timestamp: millis(this.time),
				},
			}),
			line,
		);
		this.acc.mapped(name);
	}

	private compacted(payload: Obj, line: number): void {
		const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : [];
		const encrypted = history.some(
			(i) => isObj(i) && (i.type === "compaction" || i.type === "compaction_summary"),
		);
		const message = str(payload, "message") ?? "";
		this.compaction(
			message,
			encrypted && message === "",
			line,
			history.length === 0 ? {} : { replacementHistory: history },
		);
		this.acc.mapped("compacted");
	}

	private compaction(summary: string, encrypted: boolean, line: number, details: Obj): void {
		this.close();
		if (encrypted)
			this.acc.warn(
				line,
				"a remote compaction: its summary is encrypted; the compaction says so instead",
			);
		else if (summary === "") this.acc.warn(line, "a compaction with an empty summary");
		const id = `cx-${line}`;
		this.push(
			entry("compaction", id, this.tip, this.time, {
				summary: encrypted ? ENCRYPTED_SUMMARY : summary,
				firstKeptEntryId: id,
				tokensBefore: 0,
				details: { source: "codex", encrypted, ...details },
			}),
			line,
		);
	}

	/**
	 * A call's usage, to the assistant message of that call. Codex writes the
	 * count after the call's output (0.135), or before it and again after it
	 * (0.58): a count whose running total was seen already is that second
	 * copy; a new one goes to the last assistant message while it has none,
	 * else it is the next call's, held for the next assistant message.
	 */
	private tokenCount(info: Obj | undefined): void {
		const usage = info === undefined ? undefined : obj(info, "last_token_usage");
		if (usage === undefined) return;
		const total = JSON.stringify(obj(info as Obj, "total_token_usage") ?? usage);
		if (total === this.lastTotal) return;
		this.lastTotal = total;
		if (this.lastAssistant !== undefined && !this.lastHasUsage) {
			(this.lastAssistant.message as Obj).usage = usageOf(usage);
			this.lastHasUsage = true;
		} else {
			this.pendingUsage = usage;
		}
	}

	private event(payload: Obj, line: number): void {
		const type = typeof payload.type === "string" ? payload.type : "(no type)";
		const name = `event_msg/${type}`;
		if (ECHOES.has(type)) {
			this.acc.mapped(name);
			return;
		}
		if (type === "token_count") {
			this.tokenCount(obj(payload, "info"));
			this.acc.mapped(name);
			return;
		}
		if (type === "thread_rolled_back") {
			this.rollback(payload, line, name);
			return;
		}
		if (type === "thread_name_updated" && typeof payload.thread_name === "string") {
			this.push(
				entry("session_info", `cx-${line}`, this.tip, this.time, { name: payload.thread_name }),
				line,
			);
			this.acc.mapped(name);
			return;
		}
		this.push(customEntry("codex/event_msg", `cx-${line}`, this.tip, this.time, payload), line);
		this.acc.custom(name);
	}

	private rollback(payload: Obj, line: number, name: string): void {
		this.close();
		const n =
			typeof payload.num_turns === "number" ? Math.max(0, Math.floor(payload.num_turns)) : 0;
		if (n > this.turns.length)
			this.acc.warn(
				line,
				`a rollback of ${n} turns, past the ${this.turns.length} on the branch: back to the first`,
			);
		const keep = Math.max(0, this.turns.length - n);
		const target = this.turns[keep];
		if (target !== undefined) this.tip = target.parent;
		this.turns.length = keep;
		this.push(
			customEntry("codex/thread_rolled_back", `cx-${line}`, this.tip, this.time, payload),
			line,
		);
		this.acc.mapped(name);
	}
}

/**
 * Converts a Codex rollout's records: the first ones (`head`, which tell the
 * layout and the start time), then the rest as they are read. `name` is the
 * file's base name, for a missing session id.
 */
export function convertCodex(
	head: readonly SourceRecord[],
	rest: Iterable<SourceRecord>,
	acc: Accounting,
	name: string,
): Converted {
	const first = head[0]?.value;
	const legacy = isObj(first) && !("payload" in first) && first.type !== "session_meta";
	const start = isoTime(
		isObj(first) ? (first.timestamp ?? obj(first, "payload")?.timestamp) : undefined,
		new Date(0).toISOString(),
	);
	const run = new CodexImport(acc, start);
	for (const r of head) run.record(r, legacy);
	for (const r of rest) run.record(r, legacy);
	const top = run.head ?? header(name, start, "");
	if (top.id === "") top.id = name;
	return {
		header: top,
		entries: run.entries,
		lines: run.lines,
		details: { forks: run.forks, layout: legacy ? "pre-envelope" : "envelope" },
	};
}

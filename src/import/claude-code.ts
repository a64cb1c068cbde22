/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`)
 * to our entries. The records' `uuid`/`parentUuid` give the tree; the
 * records of one API response (same `message.id`, chained) become one
 * assistant message; tool results follow their call (parallel calls, which
 * Claude Code chains as pseudo-branches, all end up on one branch); a
 * compact boundary and its summary record become one compaction; titles
 * become `session_info`, model switches `model_change`; what the model did
 * not see as conversation is kept as `custom` entries; sidechains stay out
 * of the context. Pure: records in, entries out.
 */
import type { Accounting, SourceRecord } from "./accounting.js";
import {
	assistantBlock,
	BOOKKEEPING,
	resultContent,
	stopReasonOf,
	summaryText,
	textOf,
	titleOf,
	usageOf,
	userContent,
} from "./claude-code-blocks.js";
import {
	type Converted,
	customEntry,
	endWithLeaf,
	entry,
	header,
	isoTime,
	millis,
	type OutEntry,
} from "./entries.js";
import { isObj, type Obj, obj, str } from "./records.js";

/** An assistant message being merged from the records of one response. */
interface Group {
	entry: OutEntry;
	messageId: string | undefined;
	/** The last entry of the response's block: the message, then its results in file order. */
	tail: string;
}

class ClaudeCodeImport {
	readonly entries: OutEntry[] = [];
	readonly lines: number[] = [];
	/** Source uuid → the entry its children hang on. */
	private readonly alias = new Map<string, string | null>();
	/** Entry id → the nearest conversation entry at or above it. */
	private readonly anchor = new Map<string, string | null>();
	/** Conversation entry id (message or result) → the response block it belongs to. */
	private readonly blockOf = new Map<string, Group>();
	private readonly toolNames = new Map<string, string>();
	private readonly sidechains = new Map<string, { records: number; firstLine: number }>();
	private readonly subagents: Obj[] = [];
	private pendingCompaction: OutEntry | undefined;
	/** Summaries waiting to know whether their leaf is in the file. */
	private readonly titles: { entry: OutEntry; leaf: string; text: string }[] = [];
	/** Whether a conversation record was read on the main line, and on a sidechain. */
	sawMain = false;
	sawSide = false;
	private lastTime: string;
	private lastMain: string | null = null;
	/** The last conversation entry in file order: the branch's end. */
	lastConversation: string | undefined;
	private model: string | undefined;
	headerFields: {
		id?: string | undefined;
		cwd?: string | undefined;
		timestamp?: string;
		version?: string | undefined;
	} = {};

	constructor(
		private readonly acc: Accounting,
		private readonly sideAsMain: boolean,
		fallbackTime: string,
	) {
		this.lastTime = fallbackTime;
	}

	private push(e: OutEntry, line: number, side = false): OutEntry {
		this.entries.push(e);
		this.lines.push(line);
		if (!side) this.lastMain = e.id;
		return e;
	}

	/** The entry a record's children hang on, or null; warns once for a parent not in the file. */
	private parentOf(record: Obj, line: number, key = "parentUuid"): string | null {
		const p = record[key];
		if (typeof p !== "string") return null;
		const out = this.alias.get(p);
		if (out !== undefined) return out;
		this.acc.warn(
			line,
			`${key} ${JSON.stringify(p)} names no earlier record: hung on the record before it in the file`,
		);
		return this.lastMain;
	}

	/** Where a new conversation entry under `parent` hangs: after the response block it follows. */
	private attach(parent: string | null): string | null {
		const a = parent === null ? null : (this.anchor.get(parent) ?? null);
		const group = a === null ? undefined : this.blockOf.get(a);
		return group === undefined || group.tail === a ? parent : group.tail;
	}

	record({ value, line, text }: SourceRecord): void {
		if (!isObj(value)) {
			this.acc.warned("(not an object)", line, "skipped: a record that is not a JSON object");
			return;
		}
		const type = typeof value.type === "string" ? value.type : "(no type)";
		const time = isoTime(value.timestamp, this.lastTime);
		this.lastTime = time;
		this.noteHeader(value, time);
		const uuid = str(value, "uuid");
		const isConversation = (type === "user" || type === "assistant") && isObj(value.message);
		if (isConversation) {
			if (value.isSidechain === true) this.sawSide = true;
			else this.sawMain = true;
		}
		if (value.isSidechain === true && !this.sideAsMain) {
			this.sidechain(value, type, uuid, line, time, text);
			return;
		}
		if (isConversation && uuid !== undefined) {
			if (type === "assistant") this.assistant(value, uuid, line, time);
			else this.user(value, uuid, line, time);
			return;
		}
		if (type === "system" && value.subtype === "compact_boundary" && uuid !== undefined) {
			this.boundary(value, uuid, line, time);
			return;
		}
		if (!BOOKKEEPING.has(type)) {
			const what = isConversation
				? `a ${type} record without a uuid`
				: `unknown record type ${JSON.stringify(type)}`;
			this.acc.warned(type, line, `skipped: ${what}`);
			if (uuid !== undefined) this.alias.set(uuid, this.parentOf(value, line));
			return;
		}
		this.bookkeeping(value, type, uuid, line, time, text);
	}

	private noteHeader(value: Obj, time: string): void {
		const h = this.headerFields;
		h.id ??= str(value, "sessionId");
		h.cwd ??= str(value, "cwd");
		h.version ??= str(value, "version");
		if (h.timestamp === undefined && typeof value.timestamp === "string") h.timestamp = time;
	}

	private bookkeeping(
		value: Obj,
		type: string,
		uuid: string | undefined,
		line: number,
		time: string,
		text: string,
	): void {
		const parent = uuid === undefined ? this.lastMain : this.parentOf(value, line);
		const id = uuid ?? `cc-line-${line}`;
		const title = titleOf(value, type);
		const leaf = type === "summary" ? str(value, "leafUuid") : undefined;
		const e =
			title === undefined
				? customEntry(`claude-code/${type}`, id, parent, time, value, text)
				: entry("session_info", id, parent, time, { name: title });
		// A summary titles its leaf, which is often written after it: decided at the end.
		if (leaf !== undefined && title !== undefined) this.titles.push({ entry: e, leaf, text });
		else if (title === undefined) this.acc.custom(type);
		else this.acc.mapped(type);
		const agentId = obj(value, "toolUseResult")?.agentId;
		if (typeof agentId === "string") this.subagents.push({ agentId, line });
		this.push(e, line);
		this.anchor.set(id, parent === null ? null : (this.anchor.get(parent) ?? null));
		if (uuid !== undefined) this.alias.set(uuid, id);
	}

	private sidechain(
		value: Obj,
		type: string,
		uuid: string | undefined,
		line: number,
		time: string,
		text: string,
	): void {
		const key = str(value, "agentId") ?? str(value, "sessionId") ?? "sidechain";
		const seen = this.sidechains.get(key);
		if (seen === undefined) this.sidechains.set(key, { records: 1, firstLine: line });
		else seen.records++;
		const p = str(value, "parentUuid");
		const parent = p === undefined ? null : (this.alias.get(p) ?? null);
		const id = uuid ?? `cc-line-${line}`;
		this.push(customEntry("claude-code/sidechain", id, parent, time, value, text), line, true);
		this.anchor.set(id, null);
		if (uuid !== undefined) this.alias.set(uuid, id);
		this.acc.custom(`${type} (sidechain)`);
	}

	private assistant(value: Obj, uuid: string, line: number, time: string): void {
		const message = value.message as Obj;
		const messageId = str(message, "id");
		const parent = this.parentOf(value, line);
		const above = parent === null ? undefined : this.anchor.get(parent);
		const group = above == null ? undefined : this.blockOf.get(above);
		const blocks: unknown[] = Array.isArray(message.content) ? message.content : [];
		const content = blocks.flatMap((b): Obj[] => {
			const block = assistantBlock(b, this.acc, line);
			return block === undefined ? [] : [block];
		});
		for (const b of content)
			if (b.type === "toolCall") this.toolNames.set(b.id as string, b.name as string);
		if (group !== undefined && messageId !== undefined && group.messageId === messageId) {
			// One response, even when streamed tool calls ran (and wrote their results) before it ended.
			const e = group.entry;
			const m = e.message as Obj;
			(m.content as Obj[]).push(...content);
			m.usage = usageOf(message.usage);
			m.stopReason = stopReasonOf(
				message.stop_reason,
				(m.content as Obj[]).some((b) => b.type === "toolCall"),
			);
			this.alias.set(uuid, e.id);
			this.acc.mapped("assistant");
			this.lastConversation = group.tail;
			return;
		}
		let hang = this.attach(parent);
		const model = str(message, "model");
		if (model !== undefined && model !== "<synthetic>" && model !== this.model) {
			this.model = model;
			const change = entry("model_change", `${uuid}:model`, hang, time, {
				provider: "anthropic",
				modelId: model,
			});
			this.push(change, line);
			this.anchor.set(change.id, hang === null ? null : (this.anchor.get(hang) ?? null));
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
				model: model ?? this.model ?? "unknown",
				usage: usageOf(message.usage),
				stopReason: synthetic ? "error" : stopReasonOf(message.stop_reason, hasCalls),
				...(synthetic ? { errorMessage: textOf(content) } : {}),
				timestamp: millis(time),
			},
		});
		this.push(e, line);
		const g: Group = { entry: e, messageId, tail: uuid };
		this.blockOf.set(uuid, g);
		this.anchor.set(uuid, uuid);
		this.alias.set(uuid, uuid);
		this.lastConversation = uuid;
		this.acc.mapped("assistant");
	}

	private user(value: Obj, uuid: string, line: number, time: string): void {
		const message = value.message as Obj;
		const parent = this.parentOf(value, line);
		if (value.isCompactSummary === true) {
			this.compactSummary(value, uuid, parent, line, time);
			return;
		}
		const above = parent === null ? undefined : this.anchor.get(parent);
		const group = above == null ? undefined : this.blockOf.get(above);
		let hang = this.attach(parent);
		const blocks: unknown[] = Array.isArray(message.content) ? message.content : [];
		const results = blocks.filter((b) => isObj(b) && b.type === "tool_result") as Obj[];
		let last: string | undefined;
		const before = this.entries.length;
		results.forEach((block, k) => {
			const id = k === 0 ? uuid : `${uuid}:${k}`;
			const callId = str(block, "tool_use_id") ?? "";
			const toolName = this.toolNames.get(callId);
			if (toolName === undefined)
				this.acc.warn(
					line,
					`a tool result for ${JSON.stringify(callId)}, which no earlier call made: its tool name is unknown`,
				);
			const tur = value.toolUseResult;
			const e = entry("message", id, hang, time, {
				message: {
					role: "toolResult",
					toolCallId: callId,
					toolName: toolName ?? "unknown",
					content: resultContent(block.content, this.acc, line),
					isError: block.is_error === true,
					...(tur === undefined || results.length > 1 ? {} : { details: tur }),
					timestamp: millis(time),
				},
			});
			this.push(e, line);
			hang = id;
			last = id;
		});
		const rest =
			results.length === 0
				? userContent(message.content, this.acc, line)
				: userContent(
						blocks.filter((b) => !(isObj(b) && b.type === "tool_result")),
						this.acc,
						line,
					);
		if (rest !== undefined && (typeof rest === "string" || rest.length > 0)) {
			const id = results.length === 0 ? uuid : `${uuid}:text`;
			this.push(
				entry("message", id, hang, time, {
					message: { role: "user", content: rest, timestamp: millis(time) },
				}),
				line,
			);
			last = id;
		}
		if (last === undefined) {
			this.push(
				entry("message", uuid, hang, time, {
					message: { role: "user", content: "", timestamp: millis(time) },
				}),
				line,
			);
			this.acc.warn(line, "a user record with no content: an empty user message");
			last = uuid;
		}
		const agentId = obj(value, "toolUseResult")?.agentId;
		if (typeof agentId === "string") this.subagents.push({ agentId, line });
		const created = this.entries.length - before;
		const made = this.entries.slice(this.entries.length - created);
		for (const e of made) this.anchor.set(e.id, e.id);
		this.alias.set(uuid, last);
		if (group !== undefined && results.length > 0) {
			group.tail = last;
			for (const e of made) this.blockOf.set(e.id, group);
		}
		this.lastConversation = last;
		this.acc.mapped("user");
	}

	private boundary(value: Obj, uuid: string, line: number, time: string): void {
		const logical = str(value, "logicalParentUuid");
		const parent = this.attach(
			logical === undefined
				? this.parentOf(value, line)
				: this.parentOf(value, line, "logicalParentUuid"),
		);
		const meta = obj(value, "compactMetadata");
		const tokens = meta !== undefined && typeof meta.preTokens === "number" ? meta.preTokens : 0;
		const e = entry("compaction", uuid, parent, time, {
			summary: "",
			firstKeptEntryId: uuid,
			tokensBefore: tokens,
			details: { source: "claude-code", trigger: meta?.trigger ?? null },
		});
		this.push(e, line);
		this.pendingCompaction = e;
		this.alias.set(uuid, uuid);
		this.anchor.set(uuid, uuid);
		this.lastConversation = uuid;
		this.acc.mapped("system/compact_boundary");
	}

	private compactSummary(
		value: Obj,
		uuid: string,
		parent: string | null,
		line: number,
		time: string,
	): void {
		const text = summaryText((value.message as Obj).content);
		const pending = this.pendingCompaction;
		if (pending !== undefined && parent === pending.id && pending.summary === "") {
			pending.summary = text;
			this.alias.set(uuid, pending.id);
		} else {
			const e = entry("compaction", uuid, this.attach(parent), time, {
				summary: text,
				firstKeptEntryId: uuid,
				tokensBefore: 0,
			});
			this.push(e, line);
			this.alias.set(uuid, uuid);
			this.anchor.set(uuid, uuid);
			this.lastConversation = uuid;
		}
		this.pendingCompaction = undefined;
		this.acc.mapped("user (compact summary)");
	}

	details(): Obj {
		for (const { entry: e, leaf, text } of this.titles) {
			if (this.alias.has(leaf)) {
				this.acc.mapped("summary");
				continue;
			}
			// The title of another session's leaf: kept whole, out of the context.
			e.type = "custom";
			delete e.name;
			Object.assign(
				e,
				customEntry("claude-code/summary", e.id, e.parentId, e.timestamp, undefined, text),
			);
			this.acc.custom("summary");
		}
		for (const e of this.entries) {
			if (e.type === "compaction" && e.summary === "") {
				const at = this.lines[this.entries.indexOf(e)] as number;
				this.acc.warn(
					at,
					"a compaction boundary with no summary record after it: an empty summary",
				);
			}
		}
		return {
			sidechains: [...this.sidechains].map(([agent, s]) => ({ agent, ...s })),
			subagents: this.subagents,
		};
	}
}

/**
 * Converts a Claude Code transcript's records: the first ones (`head`, for
 * the start time), then the rest as they are read. `name` is the file's base
 * name, for a missing session id. With `sideAsMain`, sidechain records are
 * the main line (a sub-agent's own transcript); `details.onlySidechains`
 * says when a file should have been read so.
 */
export function convertClaudeCode(
	head: readonly SourceRecord[],
	rest: Iterable<SourceRecord>,
	acc: Accounting,
	name: string,
	sideAsMain: boolean,
): Converted {
	const first = head.find(({ value }) => isObj(value) && typeof value.timestamp === "string");
	const start = isoTime(
		first === undefined ? undefined : (first.value as Obj).timestamp,
		new Date(0).toISOString(),
	);
	const run = new ClaudeCodeImport(acc, sideAsMain, start);
	for (const r of head) run.record(r);
	for (const r of rest) run.record(r);
	const details = run.details();
	const h = run.headerFields;
	endWithLeaf(run.entries, run.lines, run.lastConversation);
	return {
		header: header(
			h.id ?? name,
			h.timestamp ?? start,
			h.cwd ?? "",
			h.version === undefined ? {} : { claudeCodeVersion: h.version },
		),
		entries: run.entries,
		lines: run.lines,
		details: {
			...details,
			sidechainFile: sideAsMain,
			onlySidechains: !sideAsMain && !run.sawMain && run.sawSide,
		},
	};
}

/**
 * Claude Code's other records: bookkeeping records (a title becomes
 * `session_info`, the rest `custom` entries), sidechain records (kept
 * whole, out of the context), and a compact boundary with the summary
 * record after it (one compaction).
 */
import { summaryText, titleOf } from "./claude-code-blocks.js";
import type { ClaudeCodeState } from "./claude-code-state.js";
import { customEntry, entry } from "./entries.js";
import { type Obj, obj, str } from "./records.js";

/** A bookkeeping record: a title as `session_info`, anything else kept as a `custom` entry. */
export function bookkeeping(
	run: ClaudeCodeState,
	value: Obj,
	type: string,
	uuid: string | undefined,
	line: number,
	time: string,
	text: string,
): void {
	const parent = uuid === undefined ? run.lastMain : run.parentOf(value, line);
	const id = uuid ?? `cc-line-${line}`;
	const title = titleOf(value, type);
	const leaf = type === "summary" ? str(value, "leafUuid") : undefined;
	const e =
		title === undefined
			? customEntry(`claude-code/${type}`, id, parent, time, value, text)
			: entry("session_info", id, parent, time, { name: title });
	// A summary titles its leaf, which is often written after it: decided at the end.
	if (leaf !== undefined && title !== undefined) run.titles.push({ entry: e, leaf, text });
	else if (title === undefined) run.acc.custom(type);
	else run.acc.mapped(type);
	const agentId = obj(value, "toolUseResult")?.agentId;
	if (typeof agentId === "string") run.subagents.push({ agentId, line });
	run.push(e, line);
	run.anchor.set(id, parent === null ? null : (run.anchor.get(parent) ?? null));
	if (uuid !== undefined) run.alias.set(uuid, id);
}

/** A sidechain record (a sub-agent's, inline): kept whole as a `custom` entry, out of the context. */
/** The custom type of a sidechain's record kept whole in the log (a sub-agent's, run inline). */
export const SIDECHAIN_RECORD = "claude-code/sidechain";

export function sidechain(
	run: ClaudeCodeState,
	value: Obj,
	type: string,
	uuid: string | undefined,
	line: number,
	time: string,
	text: string,
): void {
	const key = str(value, "agentId") ?? str(value, "sessionId") ?? "sidechain";
	const seen = run.sidechains.get(key);
	if (seen === undefined) run.sidechains.set(key, { records: 1, firstLine: line });
	else seen.records++;
	const p = str(value, "parentUuid");
	const parent = p === undefined ? null : (run.alias.get(p) ?? null);
	const id = uuid ?? `cc-line-${line}`;
	run.push(customEntry(SIDECHAIN_RECORD, id, parent, time, value, text), line, true);
	run.anchor.set(id, null);
	if (uuid !== undefined) run.alias.set(uuid, id);
	run.acc.custom(`${type} (sidechain)`);
}

/** A compact boundary: a compaction whose summary the next summary record gives. */
export function boundary(
	run: ClaudeCodeState,
	value: Obj,
	uuid: string,
	line: number,
	time: string,
): void {
	const logical = str(value, "logicalParentUuid");
	const parent = run.attach(
		logical === undefined
			? run.parentOf(value, line)
			: run.parentOf(value, line, "logicalParentUuid"),
	);
	const meta = obj(value, "compactMetadata");
	const tokens = meta !== undefined && typeof meta.preTokens === "number" ? meta.preTokens : 0;
	const e = entry("compaction", uuid, parent, time, {
		summary: "",
		firstKeptEntryId: uuid,
		tokensBefore: tokens,
		details: { source: "claude-code", trigger: meta?.trigger ?? null },
	});
	run.push(e, line);
	run.pendingCompaction = e;
	run.conversationAt(uuid);
	run.acc.mapped("system/compact_boundary");
}

/** A compact summary record: the pending boundary's summary, else a compaction of its own. */
export function compactSummary(
	run: ClaudeCodeState,
	value: Obj,
	uuid: string,
	parent: string | null,
	line: number,
	time: string,
): void {
	const text = summaryText((value.message as Obj).content);
	const pending = run.pendingCompaction;
	if (pending !== undefined && parent === pending.id && pending.summary === "") {
		pending.summary = text;
		run.alias.set(uuid, pending.id);
	} else {
		const e = entry("compaction", uuid, run.attach(parent), time, {
			summary: text,
			firstKeptEntryId: uuid,
			tokensBefore: 0,
		});
		run.push(e, line);
		run.conversationAt(uuid);
	}
	run.pendingCompaction = undefined;
	run.acc.mapped("user (compact summary)");
}

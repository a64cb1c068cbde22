/**
 * Codex's events and compactions: token counts (a call's usage, to its
 * assistant message), a rollback (what follows hangs on the turn it goes
 * back to), a thread name (`session_info`), echoes of items already read,
 * and `compacted` records.
 */

import { ECHOES, usageOf } from "./codex-items.js";
import type { CodexState } from "./codex-state.js";
import { customEntry, entry } from "./entries.js";
import { isObj, type Obj, obj, str } from "./records.js";

/** A `compacted` record: a compaction (its summary encrypted when Codex compacted remotely). */
export function compacted(run: CodexState, payload: Obj, line: number): void {
	const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : [];
	const encrypted = history.some(
		(i) => isObj(i) && (i.type === "compaction" || i.type === "compaction_summary"),
	);
	const message = str(payload, "message") ?? "";
	run.compaction(
		message,
		encrypted && message === "",
		line,
		history.length === 0 ? {} : { replacementHistory: history },
	);
	run.acc.mapped("compacted");
}

/** An `event_msg`: usage, a rollback or a title; an echo of an item is counted, anything else kept. */
export function event(run: CodexState, payload: Obj, line: number): void {
	const type = typeof payload.type === "string" ? payload.type : "(no type)";
	const name = `event_msg/${type}`;
	if (ECHOES.has(type)) {
		run.acc.mapped(name);
		return;
	}
	if (type === "token_count") {
		tokenCount(run, obj(payload, "info"), line);
		run.acc.mapped(name);
		return;
	}
	if (type === "thread_rolled_back") {
		rollback(run, payload, line, name);
		return;
	}
	if (type === "thread_name_updated" && typeof payload.thread_name === "string") {
		run.push(
			entry("session_info", `cx-${line}`, run.tip, run.time, { name: payload.thread_name }),
			line,
		);
		run.acc.mapped(name);
		return;
	}
	run.push(customEntry("codex/event_msg", `cx-${line}`, run.tip, run.time, payload), line);
	run.acc.custom(name);
}

/**
 * A call's usage, to the assistant message of that call. Codex writes the
 * count after the call's output (0.135), or before it and again after it
 * (0.58): a count whose running total was seen already is that second
 * copy; a new one goes to the last assistant message while it has none,
 * else it is the next call's, held for the next assistant message.
 */
function tokenCount(run: CodexState, info: Obj | undefined, line: number): void {
	const usage = info === undefined ? undefined : obj(info, "last_token_usage");
	if (usage === undefined) return;
	const total = JSON.stringify(obj(info as Obj, "total_token_usage") ?? usage);
	if (total === run.lastTotal) return;
	run.lastTotal = total;
	// A resumed rollout's copy of the session it resumes: those calls were billed in that session.
	const elsewhere = run.billedElsewhere(line);
	const counted = usageOf(usage, (reason) => run.acc.warn(line, reason));
	if (run.lastAssistant !== undefined && !run.lastHasUsage) {
		(run.lastAssistant.message as Obj).usage = counted;
		run.lastHasUsage = true;
		if (elsewhere) run.elsewhere.push(run.lastAssistant.id);
	} else {
		run.pendingUsage = usage;
		run.pendingElsewhere = elsewhere;
	}
}

/** `thread_rolled_back`: the tip goes back the rolled-back turns; what follows is a branch. */
function rollback(run: CodexState, payload: Obj, line: number, name: string): void {
	run.close();
	const n = typeof payload.num_turns === "number" ? Math.max(0, Math.floor(payload.num_turns)) : 0;
	if (n > run.turns.length)
		run.acc.warn(
			line,
			`a rollback of ${n} turns, past the ${run.turns.length} on the branch: back to the first`,
		);
	const keep = Math.max(0, run.turns.length - n);
	const target = run.turns[keep];
	if (target !== undefined) run.tip = target.parent;
	run.turns.length = keep;
	run.push(customEntry("codex/thread_rolled_back", `cx-${line}`, run.tip, run.time, payload), line);
	run.acc.mapped(name);
}

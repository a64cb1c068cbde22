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
import { BOOKKEEPING } from "./claude-code-blocks.js";
import { assistant, user } from "./claude-code-messages.js";
import { bookkeeping, boundary, sidechain } from "./claude-code-records.js";

import { ClaudeCodeState } from "./claude-code-state.js";
import { type Converted, customEntry, endWithLeaf, header, isoTime } from "./entries.js";
import { isObj, type Obj, str } from "./records.js";

/** The conversion of one transcript: each record to the converter of its kind. */
class ClaudeCodeImport extends ClaudeCodeState {
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
			sidechain(this, value, type, uuid, line, time, text);
			return;
		}
		if (isConversation && uuid !== undefined) {
			if (type === "assistant") assistant(this, value, uuid, line, time);
			else user(this, value, uuid, line, time);
			return;
		}
		if (type === "system" && value.subtype === "compact_boundary" && uuid !== undefined) {
			boundary(this, value, uuid, line, time);
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
		bookkeeping(this, value, type, uuid, line, time, text);
	}

	private noteHeader(value: Obj, time: string): void {
		const h = this.headerFields;
		h.id ??= str(value, "sessionId");
		h.cwd ??= str(value, "cwd");
		h.version ??= str(value, "version");
		if (h.timestamp === undefined && typeof value.timestamp === "string") h.timestamp = time;
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
 * says whether a file should be read so (its conversation is all sidechain).
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
			onlySidechains: !run.sawMain && run.sawSide,
		},
	};
}

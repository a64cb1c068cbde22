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
import { compacted, event } from "./codex-events.js";
import { item } from "./codex-response.js";
import { legacyHeader, sessionMeta, turnContext } from "./codex-session.js";
import { CodexState } from "./codex-state.js";
import { type Converted, header, isoTime } from "./entries.js";
import { isObj, obj } from "./records.js";

export { ENCRYPTED_SUMMARY } from "./codex-state.js";

/** The conversion of one rollout: each record to the converter of its kind. */
class CodexImport extends CodexState {
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
				legacyHeader(this, value, line);
			else if (value.record_type === "state") this.keep("state", value, line);
			else item(this, value, line, "");
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
				sessionMeta(this, payload, line);
				return;
			}
			case "turn_context": {
				turnContext(this, payload, line);
				return;
			}
			case "response_item": {
				item(this, payload, line, "response_item/");
				return;
			}
			case "compacted": {
				compacted(this, payload, line);
				return;
			}
			case "event_msg": {
				event(this, payload, line);
				return;
			}
			default:
				this.acc.warned(type, line, `skipped: unknown record type ${JSON.stringify(type)}`);
		}
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
	billedElsewhere: (line: number) => boolean = () => false,
): Converted {
	const first = head[0]?.value;
	const legacy = isObj(first) && !("payload" in first) && first.type !== "session_meta";
	const start = isoTime(
		isObj(first) ? (first.timestamp ?? obj(first, "payload")?.timestamp) : undefined,
		new Date(0).toISOString(),
	);
	const run = new CodexImport(acc, start, billedElsewhere);
	for (const r of head) run.record(r, legacy);
	for (const r of rest) run.record(r, legacy);
	const top = run.head ?? header(name, start, "");
	if (top.id === "") top.id = name;
	return {
		header: top,
		entries: run.entries,
		lines: run.lines,
		details: {
			forks: run.forks,
			layout: legacy ? "pre-envelope" : "envelope",
			...(run.elsewhere.length === 0 ? {} : { billedElsewhere: run.elsewhere }),
		},
	};
}

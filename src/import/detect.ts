/**
 * Which agent wrote a session file, told from its records rather than its
 * first line: Claude Code often starts with bookkeeping (`summary`,
 * `queue-operation`, `file-history-snapshot`) and Codex's oldest files with
 * a bare `{id, timestamp}`. Our own format starts with the session header.
 * Cheap: it stops at the first record that decides.
 */
import type { SourceFormat, SourceRecord } from "./accounting.js";
import { isObj } from "./records.js";

/** How many records detection reads at most before giving up. */
export const DETECT_RECORDS = 200;

const CODEX_ENVELOPES = new Set([
	"session_meta",
	"response_item",
	"turn_context",
	"event_msg",
	"compacted",
]);
/** Record types no other agent writes. */
const CLAUDE_CODE_ONLY = new Set([
	"file-history-snapshot",
	"queue-operation",
	"last-prompt",
	"custom-title",
	"ai-title",
]);
/** The items a pre-envelope Codex file holds bare. */
export const CODEX_BARE_ITEMS = new Set([
	"message",
	"reasoning",
	"function_call",
	"function_call_output",
	"custom_tool_call",
	"custom_tool_call_output",
	"local_shell_call",
	"web_search_call",
]);

/** The format of the records, or undefined when none is recognised. */
export function detectFormat(records: readonly SourceRecord[]): SourceFormat | undefined {
	const first = records[0]?.value;
	if (isObj(first) && first.type === "session") return "theway";
	const n = Math.min(records.length, DETECT_RECORDS);
	for (let i = 0; i < n; i++) {
		const value = (records[i] as SourceRecord).value;
		if (!isObj(value)) continue;
		const type = value.type;
		if (typeof type === "string" && CODEX_ENVELOPES.has(type) && isObj(value.payload))
			return "codex";
		if ("uuid" in value && "parentUuid" in value) return "claude-code";
		if (type === "summary" && "leafUuid" in value) return "claude-code";
		if (typeof type === "string" && CLAUDE_CODE_ONLY.has(type)) return "claude-code";
		if (typeof value.sessionId === "string" && typeof type === "string") return "claude-code";
		if (i === 0 && typeof value.id === "string" && type === undefined && "timestamp" in value) {
			const next = records[1]?.value;
			if (next === undefined || isLegacyCodexItem(next)) return "codex";
		}
		if (value.record_type === "state") return "codex";
	}
	return undefined;
}

function isLegacyCodexItem(value: unknown): boolean {
	return (
		isObj(value) &&
		((typeof value.type === "string" && CODEX_BARE_ITEMS.has(value.type)) ||
			value.record_type === "state")
	);
}

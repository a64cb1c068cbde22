/**
 * The reader's validity checks: hand-written, allocation-free, and exactly
 * the zod schemas of `schema.ts` (a property test holds the two together, in
 * both directions). They decide every line; zod is consulted only to say why
 * a line was rejected. Numbers are finite, as zod requires (`1e400` parses to
 * Infinity and is refused).
 */
import { ENTRY_TYPES, isObject, Kind, MESSAGE_ROLES } from "./kinds.js";

/** Accepted as {@link Kind.Other}, with a warning: an unknown entry type or message role. */
export const UNKNOWN_TYPE = 16;
export const UNKNOWN_ROLE = 17;
/** Rejected, by the schema named: `UnknownEntry`, `KnownEntry`, `MetadataPatch` (at `data`), `CompactContextData` (at `data`). */
export const BAD_UNKNOWN_ENTRY = -1;
export const BAD_KNOWN_ENTRY = -2;
export const BAD_METADATA = -3;
export const BAD_COMPACT_CONTEXT = -4;

/** What {@link checkEntry} decides: a {@link Kind}, an accepted unknown, or a rejection. */
export type Verdict =
	| Kind
	| typeof UNKNOWN_TYPE
	| typeof UNKNOWN_ROLE
	| typeof BAD_UNKNOWN_ENTRY
	| typeof BAD_KNOWN_ENTRY
	| typeof BAD_METADATA
	| typeof BAD_COMPACT_CONTEXT;

const str = (v: unknown): boolean => typeof v === "string";
const num = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === "string";
const optBool = (v: unknown): boolean => v === undefined || typeof v === "boolean";
const optNum = (v: unknown): boolean => v === undefined || num(v);
const optText = (v: unknown): boolean => v === undefined || v === null || typeof v === "string";

function isContent(content: unknown): boolean {
	if (typeof content === "string") return true;
	if (!Array.isArray(content)) return false;
	for (const block of content) {
		if (!isObject(block) || typeof block.type !== "string") return false;
	}
	return true;
}

/** The AgentMessage schema, for a message whose role is known. */
function isMessage(m: Record<string, unknown>): boolean {
	switch (m.role) {
		case "user":
		case "assistant":
			return isContent(m.content);
		case "toolResult":
			return str(m.toolCallId) && str(m.toolName) && isContent(m.content);
		case "bashExecution":
			return (
				str(m.command) &&
				str(m.output) &&
				(m.exitCode === null || optNum(m.exitCode)) &&
				optBool(m.cancelled) &&
				optBool(m.truncated) &&
				optStr(m.fullOutputPath) &&
				optBool(m.excludeFromContext)
			);
		case "custom":
			return optStr(m.customType) && isContent(m.content) && optBool(m.display);
		default:
			return false;
	}
}

/** The fields every entry has (the `UnknownEntry` schema, less its `type`). */
function hasBase(v: Record<string, unknown>): boolean {
	return (
		typeof v.id === "string" &&
		v.id !== "" &&
		(v.parentId === null || typeof v.parentId === "string") &&
		typeof v.timestamp === "string"
	);
}

/** The fields of a known entry type beyond the base; false if they do not match. */
function knownFields(v: Record<string, unknown>): Kind | undefined {
	switch (v.type) {
		case "message":
			return isObject(v.message) && isMessage(v.message) ? Kind.Message : undefined;
		case "compaction":
			return str(v.summary) && optStr(v.firstKeptEntryId) && optNum(v.tokensBefore)
				? Kind.Compaction
				: undefined;
		case "branch_summary":
			return optStr(v.fromId) && str(v.summary) ? Kind.BranchSummary : undefined;
		case "custom_message":
			return optStr(v.customType) && isContent(v.content) && optBool(v.display)
				? Kind.CustomMessage
				: undefined;
		case "custom":
			return str(v.customType) ? Kind.Other : undefined;
		case "model_change":
			return str(v.provider) && str(v.modelId) ? Kind.ModelChange : undefined;
		case "thinking_level_change":
			return str(v.thinkingLevel) ? Kind.ThinkingLevelChange : undefined;
		case "label":
			return str(v.targetId) && optStr(v.label) ? Kind.SessionLevel : undefined;
		case "session_info":
			return optStr(v.name) ? Kind.SessionLevel : undefined;
		default:
			return undefined;
	}
}

/** theway's `session_metadata` data (the `MetadataPatch` schema). */
export function isMetadataPatch(data: unknown): boolean {
	if (!isObject(data)) return false;
	const tools = data.tools;
	if (tools !== undefined && tools !== null) {
		if (!Array.isArray(tools)) return false;
		for (const t of tools) if (typeof t !== "string") return false;
	}
	return (
		optText(data.harnessIntroduction) &&
		optText(data.memory) &&
		optText(data.cwd) &&
		optText(data.collapseNodeId) &&
		optText(data.sourceSessionId) &&
		optText(data.templateVersion)
	);
}

/** Decides one entry (after migration): its kind, or which schema rejects it. */
export function checkEntry(v: Record<string, unknown>): Verdict {
	const type = v.type;
	if (typeof type !== "string" || !ENTRY_TYPES.has(type)) {
		return typeof type === "string" && hasBase(v) ? UNKNOWN_TYPE : BAD_UNKNOWN_ENTRY;
	}
	if (type === "message" && isObject(v.message)) {
		const role = v.message.role;
		if (typeof role !== "string" || !MESSAGE_ROLES.has(role)) {
			return hasBase(v) ? UNKNOWN_ROLE : BAD_UNKNOWN_ENTRY;
		}
	}
	const kind = hasBase(v) ? knownFields(v) : undefined;
	if (kind === undefined) return BAD_KNOWN_ENTRY;
	if (kind !== Kind.Other) return kind;
	if (v.customType === "session_metadata") {
		return isMetadataPatch(v.data) ? Kind.Metadata : BAD_METADATA;
	}
	if (v.customType === "compact_context") {
		return isObject(v.data) && typeof v.data.summary === "string"
			? Kind.CompactContext
			: BAD_COMPACT_CONTEXT;
	}
	return Kind.Other;
}

/** The header schema: `type`, a positive safe-integer `version`, `id`, optional strings. */
export function isHeader(v: unknown): boolean {
	if (!isObject(v) || v.type !== "session" || typeof v.id !== "string") return false;
	const version = v.version;
	return (
		(version === undefined || (Number.isSafeInteger(version) && (version as number) >= 1)) &&
		optStr(v.timestamp) &&
		optStr(v.cwd) &&
		optStr(v.parentSession)
	);
}

/** True only for a `message` entry the schema accepts (kept for callers of the old fast path). */
export function isCertainlyValidMessageEntry(value: Record<string, unknown>): boolean {
	return checkEntry(value) === Kind.Message;
}

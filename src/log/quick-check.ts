/**
 * The reader's validity checks, made from the same tables as the zod schemas
 * (`shapes.ts`): each field's kind checked in place, allocation-free, so a
 * valid log never loads zod; zod is consulted only to say why a line was
 * rejected. A property test holds the two together, both ways.
 */
import { ENTRY_TYPES, isObject, Kind, MESSAGE_ROLES } from "./kinds.js";
import {
	BASE_FIELDS,
	COMPACT_CONTEXT_FIELDS,
	ENTRY_FIELDS,
	type EntryType,
	type FieldKind,
	type Fields,
	HEADER_FIELDS,
	MESSAGE_FIELDS,
	METADATA_FIELDS,
	type MessageRole,
} from "./shapes.js";

/** Accepted, with a warning, as {@link Kind.Other}: an unknown entry type or message role. */
export const UNKNOWN_TYPE = 16;
export const UNKNOWN_ROLE = 17;
/** Rejected, by the schema named: `UnknownEntry`, `KnownEntry`, `MetadataPatch` (at `data`), `CompactContextData` (at `data`). */
export const BAD_UNKNOWN_ENTRY = -1;
export const BAD_KNOWN_ENTRY = -2;
export const BAD_METADATA = -3;
export const BAD_COMPACT_CONTEXT = -4;

/** What {@link checkEntry} decides: a {@link Kind}, an accepted unknown, or a rejection (negative). */
export type Verdict =
	| Kind
	| typeof UNKNOWN_TYPE
	| typeof UNKNOWN_ROLE
	| typeof BAD_UNKNOWN_ENTRY
	| typeof BAD_KNOWN_ENTRY
	| typeof BAD_METADATA
	| typeof BAD_COMPACT_CONTEXT;

const finite = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);

function isContent(content: unknown): boolean {
	if (typeof content === "string") return true;
	if (!Array.isArray(content)) return false;
	for (const block of content) {
		if (!isObject(block) || typeof block.type !== "string") return false;
	}
	return true;
}

/** Whether `v` is what `kind` allows (as the zod schema built from the same kind). */
function holds(kind: FieldKind, v: unknown): boolean {
	switch (kind) {
		case "string":
			return typeof v === "string";
		case "string?":
			return v === undefined || typeof v === "string";
		case "id":
			return typeof v === "string" && v !== "";
		case "parent":
			return v === null || typeof v === "string";
		case "number?":
			return v === undefined || finite(v);
		case "version?":
			return v === undefined || (Number.isSafeInteger(v) && (v as number) >= 1);
		case "exitCode?":
			return v === undefined || v === null || finite(v);
		case "boolean?":
			return v === undefined || typeof v === "boolean";
		case "content":
			return isContent(v);
		case "text?":
			return v === undefined || v === null || typeof v === "string";
		case "tools?":
			if (v === undefined || v === null) return true;
			if (!Array.isArray(v)) return false;
			for (const t of v) if (typeof t !== "string") return false;
			return true;
		case "unknown?":
			return true;
	}
}

/** Whether every field of `fields` holds in `v`. */
function hasFields(v: Record<string, unknown>, fields: Fields): boolean {
	for (const key in fields) if (!holds(fields[key] as FieldKind, v[key])) return false;
	return true;
}

/** The kind of each known entry type, for the tree and the projection. */
const KIND_OF: Readonly<Record<EntryType, Kind>> = {
	message: Kind.Message,
	compaction: Kind.Compaction,
	branch_summary: Kind.BranchSummary,
	custom_message: Kind.CustomMessage,
	custom: Kind.Other,
	model_change: Kind.ModelChange,
	thinking_level_change: Kind.ThinkingLevelChange,
	label: Kind.SessionLevel,
	session_info: Kind.SessionLevel,
};

/** The fields of a known entry type beyond the base; undefined if they do not hold. */
function knownFields(v: Record<string, unknown>): Kind | undefined {
	const type = v.type as EntryType;
	if (!hasFields(v, ENTRY_FIELDS[type])) return undefined;
	if (type === "message") {
		const m = v.message;
		if (!isObject(m) || !hasFields(m, MESSAGE_FIELDS[m.role as MessageRole])) return undefined;
	}
	return KIND_OF[type];
}

/** theway's `session_metadata` data (the `MetadataPatch` schema). */
export function isMetadataPatch(data: unknown): boolean {
	return isObject(data) && hasFields(data, METADATA_FIELDS);
}

/** Decides one entry (after migration): its kind, or which schema rejects it. */
export function checkEntry(v: Record<string, unknown>): Verdict {
	const type = v.type;
	if (typeof type !== "string" || !ENTRY_TYPES.has(type)) {
		return typeof type === "string" && hasFields(v, BASE_FIELDS) ? UNKNOWN_TYPE : BAD_UNKNOWN_ENTRY;
	}
	if (type === "message" && isObject(v.message)) {
		const role = v.message.role;
		if (typeof role !== "string" || !MESSAGE_ROLES.has(role)) {
			return hasFields(v, BASE_FIELDS) ? UNKNOWN_ROLE : BAD_UNKNOWN_ENTRY;
		}
	}
	const kind = hasFields(v, BASE_FIELDS) ? knownFields(v) : undefined;
	if (kind === undefined) return BAD_KNOWN_ENTRY;
	if (kind !== Kind.Other) return kind;
	if (v.customType === "session_metadata") {
		return isMetadataPatch(v.data) ? Kind.Metadata : BAD_METADATA;
	}
	if (v.customType === "compact_context") {
		return isObject(v.data) && hasFields(v.data, COMPACT_CONTEXT_FIELDS)
			? Kind.CompactContext
			: BAD_COMPACT_CONTEXT;
	}
	return Kind.Other;
}

/** The header schema: `type: "session"`, then the fields of `HEADER_FIELDS`. */
export function isHeader(v: unknown): boolean {
	return isObject(v) && v.type === "session" && hasFields(v, HEADER_FIELDS);
}

/** True only for a `message` entry the schema accepts (kept for callers of the old fast path). */
export function isCertainlyValidMessageEntry(value: Record<string, unknown>): boolean {
	return checkEntry(value) === Kind.Message;
}

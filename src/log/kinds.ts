/**
 * The log's vocabulary as plain values, free of zod: the entry types and
 * message roles this project knows, the latest version, and what each entry
 * is to the tree and the projection. The parser loads nothing else at runtime.
 */
import { ENTRY_FIELDS, MESSAGE_FIELDS } from "./shapes.js";

export const LATEST_VERSION = 3;

/** The entry types of the contract (anything else is kept as an unknown type). */
export const ENTRY_TYPES: ReadonlySet<string> = new Set(Object.keys(ENTRY_FIELDS));

/** The AgentMessage roles of the contract (version 3). */
export const MESSAGE_ROLES: ReadonlySet<string> = new Set(Object.keys(MESSAGE_FIELDS));

/** What an entry is to the tree and the projection, decided once at read time. */
export const Kind = {
	/** Out of the context but part of the tree (custom of another type, unknown type or role). */
	Other: 0,
	Message: 1,
	Compaction: 2,
	BranchSummary: 3,
	CustomMessage: 4,
	CompactContext: 5,
	ModelChange: 6,
	ThinkingLevelChange: 7,
	/** `label` and `session_info`: out of the context, but the leaf when written last. */
	SessionLevel: 8,
	/** theway's `session_metadata`: folded file-wide; with `parentId: null` never the leaf. */
	Metadata: 9,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** A plain JSON object (not null, not an array). The one such check of the project. */
export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The shapes of the log's lines, as plain data: the one home of what a
 * header, an entry and an AgentMessage hold. The zod schemas (`schema.ts`,
 * built only to describe a rejected line) and the reader's allocation-free
 * checks (`quick-check.ts`, which decide every line) are both made from
 * these tables, so they cannot disagree. Objects are loose: fields not
 * named here are kept untouched.
 */

/**
 * What a field may hold. Numbers are finite, as zod requires (`1e400`
 * parses to Infinity and is refused); `?` means it may be absent.
 */
export type FieldKind =
	| "string"
	| "string?"
	/** A non-empty string (an entry's id). */
	| "id"
	/** A string or null (an entry's parent). */
	| "parent"
	| "number?"
	/** A positive safe integer, or absent (the header's version). */
	| "version?"
	/** A number or null, or absent (a bash execution's exit code). */
	| "exitCode?"
	| "boolean?"
	/** A string, or an array of blocks, each an object with a string `type`. */
	| "content"
	/** A string or null, or absent: a metadata value (`null` removes the key). */
	| "text?"
	/** An array of strings or null, or absent (the `tools` metadata). */
	| "tools?"
	/** Anything, or absent (a custom entry's data). */
	| "unknown?";

export type Fields = Readonly<Record<string, FieldKind>>;

/** The session header, beside its `type: "session"`. */
export const HEADER_FIELDS = {
	version: "version?",
	id: "string",
	timestamp: "string?",
	cwd: "string?",
	parentSession: "string?",
} as const satisfies Fields;

/** What every entry has, beside its `type`. */
export const BASE_FIELDS = {
	id: "id",
	parentId: "parent",
	timestamp: "string",
} as const satisfies Fields;

/** The AgentMessage roles of the contract (version 3) and their fields, beside `role`. */
export const MESSAGE_FIELDS = {
	user: { content: "content" },
	assistant: { content: "content" },
	toolResult: { toolCallId: "string", toolName: "string", content: "content" },
	bashExecution: {
		command: "string",
		output: "string",
		exitCode: "exitCode?",
		cancelled: "boolean?",
		truncated: "boolean?",
		fullOutputPath: "string?",
		excludeFromContext: "boolean?",
	},
	// `customType` is absent in some logs pi writes and reads: accepted, as pi does (refused in strict mode).
	custom: { customType: "string?", content: "content", display: "boolean?" },
} as const satisfies Record<string, Fields>;

/** The entry types of the contract and their fields, beside `type` and the base fields. */
export const ENTRY_FIELDS = {
	/** Its `message` is an AgentMessage (see {@link MESSAGE_FIELDS}). */
	message: {},
	compaction: { summary: "string", firstKeptEntryId: "string?", tokensBefore: "number?" },
	branch_summary: { fromId: "string?", summary: "string" },
	custom_message: { customType: "string?", content: "content", display: "boolean?" },
	custom: { customType: "string", data: "unknown?" },
	model_change: { provider: "string", modelId: "string" },
	thinking_level_change: { thinkingLevel: "string" },
	label: { targetId: "string", label: "string?" },
	session_info: { name: "string?" },
} as const satisfies Record<string, Fields>;

/** theway's `session_metadata` data: a patch folded into the session-wide map. */
export const METADATA_FIELDS = {
	harnessIntroduction: "text?",
	memory: "text?",
	tools: "tools?",
	cwd: "text?",
	collapseNodeId: "text?",
	sourceSessionId: "text?",
	templateVersion: "text?",
} as const satisfies Fields;

/** theway's `compact_context` data: the rolling compact summary of a collapse. */
export const COMPACT_CONTEXT_FIELDS = { summary: "string" } as const satisfies Fields;

export type EntryType = keyof typeof ENTRY_FIELDS;
export type MessageRole = keyof typeof MESSAGE_FIELDS;

/**
 * The session log's shapes: header, entries and AgentMessages (version 3,
 * after in-memory migration). Objects are loose: fields this project does not
 * read are preserved untouched. The schemas check what the projection and the
 * framings read, and no deeper, so validation stays cheap on long logs.
 */
import { z } from "zod";

export const LATEST_VERSION = 3;

export const HeaderSchema = z.looseObject({
	type: z.literal("session"),
	version: z.number().int().min(1).optional(),
	id: z.string(),
	timestamp: z.string(),
	cwd: z.string(),
	parentSession: z.string().optional(),
});
export type Header = z.infer<typeof HeaderSchema>;

const Block = z.looseObject({ type: z.string() });
const Content = z.union([z.string(), z.array(Block)]);

export const UserMessageSchema = z.looseObject({
	role: z.literal("user"),
	content: Content,
});
export const AssistantMessageSchema = z.looseObject({
	role: z.literal("assistant"),
	content: Content,
});
export const ToolResultMessageSchema = z.looseObject({
	role: z.literal("toolResult"),
	toolCallId: z.string(),
	toolName: z.string(),
	content: Content,
});
export const BashExecutionMessageSchema = z.looseObject({
	role: z.literal("bashExecution"),
	command: z.string(),
	output: z.string(),
	exitCode: z.number().nullable().optional(),
	cancelled: z.boolean().optional(),
	truncated: z.boolean().optional(),
	fullOutputPath: z.string().optional(),
	excludeFromContext: z.boolean().optional(),
});
export const CustomMessageSchema = z.looseObject({
	role: z.literal("custom"),
	customType: z.string(),
	content: Content,
	display: z.boolean().optional(),
});

export const AgentMessageSchema = z.discriminatedUnion("role", [
	UserMessageSchema,
	AssistantMessageSchema,
	ToolResultMessageSchema,
	BashExecutionMessageSchema,
	CustomMessageSchema,
]);
export type AgentMessage = z.infer<typeof AgentMessageSchema>;
export const MESSAGE_ROLES = new Set([
	"user",
	"assistant",
	"toolResult",
	"bashExecution",
	"custom",
]);

const base = {
	id: z.string().min(1),
	parentId: z.string().nullable(),
	timestamp: z.string(),
};

export const MessageEntrySchema = z.looseObject({
	type: z.literal("message"),
	...base,
	message: AgentMessageSchema,
});
export const CompactionEntrySchema = z.looseObject({
	type: z.literal("compaction"),
	...base,
	summary: z.string(),
	firstKeptEntryId: z.string().optional(),
	tokensBefore: z.number().optional(),
});
export const BranchSummaryEntrySchema = z.looseObject({
	type: z.literal("branch_summary"),
	...base,
	fromId: z.string().optional(),
	summary: z.string(),
});
export const CustomMessageEntrySchema = z.looseObject({
	type: z.literal("custom_message"),
	...base,
	customType: z.string(),
	content: Content,
	display: z.boolean().optional(),
});
export const CustomEntrySchema = z.looseObject({
	type: z.literal("custom"),
	...base,
	customType: z.string(),
	data: z.unknown().optional(),
});
export const ModelChangeEntrySchema = z.looseObject({
	type: z.literal("model_change"),
	...base,
	provider: z.string(),
	modelId: z.string(),
});
export const ThinkingLevelChangeEntrySchema = z.looseObject({
	type: z.literal("thinking_level_change"),
	...base,
	thinkingLevel: z.string(),
});
export const LabelEntrySchema = z.looseObject({
	type: z.literal("label"),
	...base,
	targetId: z.string(),
	label: z.string().optional(),
});
export const SessionInfoEntrySchema = z.looseObject({
	type: z.literal("session_info"),
	...base,
	name: z.string().optional(),
});
/** An entry of a type this project does not know: kept, out of the context. */
export const UnknownEntrySchema = z.looseObject({ type: z.string(), ...base });

export const KnownEntrySchema = z.discriminatedUnion("type", [
	MessageEntrySchema,
	CompactionEntrySchema,
	BranchSummaryEntrySchema,
	CustomMessageEntrySchema,
	CustomEntrySchema,
	ModelChangeEntrySchema,
	ThinkingLevelChangeEntrySchema,
	LabelEntrySchema,
	SessionInfoEntrySchema,
]);
export type KnownEntry = z.infer<typeof KnownEntrySchema>;
export type Entry = KnownEntry | z.infer<typeof UnknownEntrySchema>;
export type MessageEntry = z.infer<typeof MessageEntrySchema>;
export type CompactionEntry = z.infer<typeof CompactionEntrySchema>;
export type CustomEntry = z.infer<typeof CustomEntrySchema>;

export const ENTRY_TYPES = new Set<string>(KnownEntrySchema.options.map((o) => o.shape.type.value));

/** theway's `session_metadata` data: a patch folded into the session-wide map. */
export const MetadataPatchSchema = z.looseObject({
	harnessIntroduction: z.string().nullable().optional(),
	memory: z.string().nullable().optional(),
	tools: z.array(z.string()).nullable().optional(),
	cwd: z.string().nullable().optional(),
	collapseNodeId: z.string().nullable().optional(),
	sourceSessionId: z.string().nullable().optional(),
	templateVersion: z.string().nullable().optional(),
});
/** The folded session metadata: every key present has a value. */
export type SessionMetadata = {
	harnessIntroduction?: string;
	memory?: string;
	tools?: string[];
	cwd?: string;
	collapseNodeId?: string;
	sourceSessionId?: string;
	templateVersion?: string;
	[key: string]: unknown;
};

/** theway's `compact_context` data: the rolling compact summary of a collapse. */
export const CompactContextDataSchema = z.looseObject({ summary: z.string() });

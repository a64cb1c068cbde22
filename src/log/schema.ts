/**
 * The session log's shapes: header, entries and AgentMessages (version 3,
 * after in-memory migration), as zod schemas. Objects are loose: fields this
 * project does not read are preserved untouched. The schemas check what the
 * projection and the framings read, and no deeper.
 *
 * The types come from here; the schemas themselves are built only when a
 * rejected line needs describing (see `describe.ts`): the reader decides
 * validity with the checks of `quick-check.ts`, which accept exactly what
 * these schemas accept, so zod stays off the path of a valid log.
 */
import type * as Zod from "zod";

/** Builds the schemas with the given zod module (loaded lazily by the caller). */
export function buildSchemas(z: typeof Zod) {
	const Header = z.looseObject({
		type: z.literal("session"),
		version: z.number().int().min(1).optional(),
		id: z.string(),
		timestamp: z.string().optional(),
		cwd: z.string().optional(),
		parentSession: z.string().optional(),
	});
	const Block = z.looseObject({ type: z.string() });
	const Content = z.union([z.string(), z.array(Block)]);
	const AgentMessage = z.discriminatedUnion("role", [
		z.looseObject({ role: z.literal("user"), content: Content }),
		z.looseObject({ role: z.literal("assistant"), content: Content }),
		z.looseObject({
			role: z.literal("toolResult"),
			toolCallId: z.string(),
			toolName: z.string(),
			content: Content,
		}),
		z.looseObject({
			role: z.literal("bashExecution"),
			command: z.string(),
			output: z.string(),
			exitCode: z.number().nullable().optional(),
			cancelled: z.boolean().optional(),
			truncated: z.boolean().optional(),
			fullOutputPath: z.string().optional(),
			excludeFromContext: z.boolean().optional(),
		}),
		z.looseObject({
			role: z.literal("custom"),
			// Absent in some logs pi writes and reads: accepted, as pi does (refused in strict mode).
			customType: z.string().optional(),
			content: Content,
			display: z.boolean().optional(),
		}),
	]);
	const base = { id: z.string().min(1), parentId: z.string().nullable(), timestamp: z.string() };
	const KnownEntry = z.discriminatedUnion("type", [
		z.looseObject({ type: z.literal("message"), ...base, message: AgentMessage }),
		z.looseObject({
			type: z.literal("compaction"),
			...base,
			summary: z.string(),
			firstKeptEntryId: z.string().optional(),
			tokensBefore: z.number().optional(),
		}),
		z.looseObject({
			type: z.literal("branch_summary"),
			...base,
			fromId: z.string().optional(),
			summary: z.string(),
		}),
		z.looseObject({
			type: z.literal("custom_message"),
			...base,
			customType: z.string().optional(),
			content: Content,
			display: z.boolean().optional(),
		}),
		z.looseObject({
			type: z.literal("custom"),
			...base,
			customType: z.string(),
			data: z.unknown().optional(),
		}),
		z.looseObject({
			type: z.literal("model_change"),
			...base,
			provider: z.string(),
			modelId: z.string(),
		}),
		z.looseObject({ type: z.literal("thinking_level_change"), ...base, thinkingLevel: z.string() }),
		z.looseObject({
			type: z.literal("label"),
			...base,
			targetId: z.string(),
			label: z.string().optional(),
		}),
		z.looseObject({ type: z.literal("session_info"), ...base, name: z.string().optional() }),
	]);
	/** An entry of a type (or a message of a role) this project does not know: kept, out of the context. */
	const UnknownEntry = z.looseObject({ type: z.string(), ...base });
	const text = z.string().nullable().optional();
	/** theway's `session_metadata` data: a patch folded into the session-wide map. */
	const MetadataPatch = z.looseObject({
		harnessIntroduction: text,
		memory: text,
		tools: z.array(z.string()).nullable().optional(),
		cwd: text,
		collapseNodeId: text,
		sourceSessionId: text,
		templateVersion: text,
	});
	/** theway's `compact_context` data: the rolling compact summary of a collapse. */
	const CompactContextData = z.looseObject({ summary: z.string() });
	return { Header, AgentMessage, KnownEntry, UnknownEntry, MetadataPatch, CompactContextData };
}

type Schemas = ReturnType<typeof buildSchemas>;

/** The session header. A missing `cwd` or `timestamp` is repaired to "" (with a warning). */
export type Header = Zod.infer<Schemas["Header"]> & { cwd: string; timestamp: string };
/** A message as pi stores it in a `message` entry: user, assistant, tool result, bash execution or custom. */
export type AgentMessage = Zod.infer<Schemas["AgentMessage"]>;
export type KnownEntry = Zod.infer<Schemas["KnownEntry"]>;
/** One line of the log after the header (version 3, after migration), of a known type or kept as unknown. */
export type Entry = KnownEntry | Zod.infer<Schemas["UnknownEntry"]>;
export type MessageEntry = Extract<KnownEntry, { type: "message" }>;
export type CompactionEntry = Extract<KnownEntry, { type: "compaction" }>;
export type CustomEntry = Extract<KnownEntry, { type: "custom" }>;
export type CustomMessageEntry = Extract<KnownEntry, { type: "custom_message" }>;

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

/**
 * The session log's shapes as zod schemas: header, entries and AgentMessages
 * (version 3, after in-memory migration), built from the tables of
 * `shapes.ts`. Objects are loose: fields this project does not read are
 * preserved untouched. The schemas check what the projection and the
 * framings read, and no deeper.
 *
 * The types come from here; the schemas themselves are built only when a
 * rejected line needs describing (see `describe.ts`): the reader decides
 * validity with the checks of `quick-check.ts`, made from the same tables,
 * so zod stays off the path of a valid log.
 */
import type * as Zod from "zod";
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

/** Builds the schemas, from the tables of `shapes.ts`, with the given zod module (loaded lazily by the caller). */
export function buildSchemas(z: typeof Zod) {
	const Block = z.looseObject({ type: z.string() });
	const Content = z.union([z.string(), z.array(Block)]);
	const kinds = {
		string: () => z.string(),
		"string?": () => z.string().optional(),
		id: () => z.string().min(1),
		parent: () => z.string().nullable(),
		"number?": () => z.number().optional(),
		"version?": () => z.number().int().min(1).optional(),
		"exitCode?": () => z.number().nullable().optional(),
		"boolean?": () => z.boolean().optional(),
		content: () => Content,
		"text?": () => z.string().nullable().optional(),
		"tools?": () => z.array(z.string()).nullable().optional(),
		"unknown?": () => z.unknown().optional(),
	} satisfies Record<FieldKind, () => Zod.ZodType>;
	type Shape<F extends Fields> = { -readonly [K in keyof F]: ReturnType<(typeof kinds)[F[K]]> };
	const shape = <F extends Fields>(fields: F): Shape<F> =>
		Object.fromEntries(
			Object.entries(fields).map(([key, kind]) => [key, kinds[kind]()]),
		) as Shape<F>;

	const Header = z.looseObject({ type: z.literal("session"), ...shape(HEADER_FIELDS) });
	const message = <R extends MessageRole>(role: R) =>
		z.looseObject({ role: z.literal(role), ...shape(MESSAGE_FIELDS[role]) });
	const AgentMessage = z.discriminatedUnion("role", [
		message("user"),
		message("assistant"),
		message("toolResult"),
		message("bashExecution"),
		message("custom"),
	]);
	const base = shape(BASE_FIELDS);
	const entry = <T extends EntryType>(type: T) =>
		z.looseObject({ type: z.literal(type), ...base, ...shape(ENTRY_FIELDS[type]) });
	const KnownEntry = z.discriminatedUnion("type", [
		z.looseObject({ type: z.literal("message"), ...base, message: AgentMessage }),
		entry("compaction"),
		entry("branch_summary"),
		entry("custom_message"),
		entry("custom"),
		entry("model_change"),
		entry("thinking_level_change"),
		entry("label"),
		entry("session_info"),
	]);
	/** An entry of a type (or a message of a role) this project does not know: kept, out of the context. */
	const UnknownEntry = z.looseObject({ type: z.string(), ...base });
	const MetadataPatch = z.looseObject(shape(METADATA_FIELDS));
	const CompactContextData = z.looseObject(shape(COMPACT_CONTEXT_FIELDS));
	return { Header, AgentMessage, KnownEntry, UnknownEntry, MetadataPatch, CompactContextData };
}

// Every role and entry type of the tables has its variant above.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyRole: Same<
	MessageRole,
	Zod.infer<ReturnType<typeof buildSchemas>["AgentMessage"]>["role"]
> = true;
const everyType: Same<EntryType, Zod.infer<ReturnType<typeof buildSchemas>["KnownEntry"]>["type"]> =
	true;
void everyRole;
void everyType;

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

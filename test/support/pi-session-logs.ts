/**
 * fast-check arbitraries for session logs in pi's own format, at the edges
 * of what pi reads: versions 1 to 3 (pi migrates the older ones), trees of
 * several branches whose leaf (the last entry) is anywhere, compactions whose
 * `firstKeptEntryId` (or v1 `firstKeptEntryIndex`) names anything, duplicate
 * ids, parents that name nothing or a later entry, and the blank and
 * malformed lines pi skips. Generated values are plain data, resolved when
 * the log is built, so counterexamples shrink and print well.
 *
 * One thing is kept out: a parentId cycle on the active branch, on which pi
 * never returns (the crafted fixture damaged/pi/cycle covers it); the build
 * cuts such a cycle where pi's walk would close it.
 */
import fc from "fast-check";
import {
	assistantMessage,
	bashMessage,
	imageBlock,
	json,
	text,
	textBlock,
	thinkingBlock,
	toolCallBlock,
	toolResultMessage,
	userMessage,
} from "./arbitrary-text.js";

type JsonObject = Record<string, unknown>;

/** Which entry another refers to: n picks among the candidates the build offers. */
type Ref = { n: number };
export type Parent =
	| { to: "previous" }
	| ({ to: "earlier" } & Ref)
	| ({ to: "later" } & Ref)
	| { to: "root" }
	| ({ to: "nothing" } & Ref);
export type Kept =
	| "ancestor"
	| "itself"
	| "later"
	| "elsewhere"
	| "missing"
	| "absent"
	| "index-header"
	| "index-odd";

export type Body =
	| { t: "message"; message: JsonObject }
	| { t: "hook"; fields: JsonObject; time: { time: unknown } | null }
	| { t: "compaction"; summary: string; tokensBefore?: number; kept: Kept; pick: number }
	| { t: "branch_summary"; summary: string; pick: number | undefined }
	| { t: "custom_message"; fields: JsonObject }
	| { t: "custom"; customType: string; data: unknown }
	| { t: "compact_context"; summary: string }
	| { t: "model_change"; provider: string; modelId: string }
	| { t: "thinking_level_change"; thinkingLevel: string }
	| { t: "label"; pick: number; label?: string }
	| { t: "session_info"; name?: string }
	| { t: "unknown"; type: string };

/**
 * A line that is not an entry: blank (to pi, whatever `trim()` empties), not
 * JSON, JSON that is not an object, or a session header again (the same or
 * another; pi counts it in a v1 index). `$header` stands for the log's own.
 */
export type Junk = { kind: "blank" | "malformed" | "scalar" | "header"; line: string };

export interface Node {
	body: Body;
	parent: Parent;
	/** Reuse the id of an earlier entry (`dup`), or a fresh one. */
	dup: Ref | null;
	/** A fresh id of this text, if no entry has it yet (else `e<index>`). */
	idText: string | null;
	/** null: the time pi writes (ISO 8601, UTC). */
	time: string | null;
	junkBefore: Junk[];
	/** The next line follows after a lone CR instead of a line ending (one line to pi). */
	crJoin: boolean;
	/** JSON whitespace around the entry's line. */
	pad: boolean;
}

export interface PiLogSpec {
	version: 1 | 2 | 3;
	nodes: Node[];
	eol: "\n" | "\r\n";
	/** Before the header: a byte-order mark, blank lines (pi trims the file's text). */
	lead: string;
	/** Junk after the last entry (never a scalar: pi would take it for the leaf). */
	trailing: Junk[];
	/** A version-1 header says `"version": 1` (else it has no version). */
	v1Explicit: boolean;
	/** Version-1 entries carry ids and parents of their own anyway (pi replaces them). */
	v1Ids: boolean;
	/** Keys of a version-1 header pi keeps as they are. */
	headerExtras: JsonObject;
}

const content = fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }));
/** Custom content may hold any block pi passes along: thinking, tool calls, blocks of no known type. */
const customContent = fc.oneof(
	{ weight: 4, arbitrary: content },
	{
		weight: 1,
		arbitrary: fc.array(
			fc.oneof(
				textBlock,
				imageBlock,
				thinkingBlock,
				toolCallBlock,
				fc.record({ type: fc.constant("note"), text, extra: fc.record({ deep: text }) }),
			),
			{ minLength: 1, maxLength: 4 },
		),
	},
);

const customFields = fc.record(
	{
		customType: text,
		content: customContent,
		display: fc.boolean(),
		details: json,
	},
	{ requiredKeys: ["content"] },
);

/** A message's own timestamp: the epoch milliseconds pi writes, or rarely a string, or none. */
const messageTime: fc.Arbitrary<{ time: unknown } | null> = fc.oneof(
	{ weight: 15, arbitrary: fc.constant(null) },
	{
		weight: 1,
		arbitrary: fc.constantFrom({ time: "2026-01-01T00:00:00.000Z" }, { time: undefined }),
	},
);

const message = (m: fc.Arbitrary<JsonObject>) =>
	fc.tuple(m, messageTime).map(([message, time]) => {
		if (time === null) return { t: "message" as const, message };
		const { timestamp: _, ...rest } = message;
		return {
			t: "message" as const,
			message: time.time === undefined ? rest : { ...rest, timestamp: time.time },
		};
	});

const body: fc.Arbitrary<Body> = fc.oneof(
	{ weight: 6, arbitrary: message(userMessage) },
	{ weight: 6, arbitrary: message(assistantMessage) },
	{
		weight: 1,
		arbitrary: message(fc.tuple(assistantMessage, text).map(([m, content]) => ({ ...m, content }))),
	},
	{ weight: 3, arbitrary: message(toolResultMessage) },
	{ weight: 2, arbitrary: message(bashMessage) },
	{
		weight: 1,
		arbitrary: message(
			fc.record({
				role: fc.constantFrom("system", "notice", "hookMessage"),
				content,
				timestamp: fc.nat(),
			}),
		),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				customFields,
				fc.oneof(
					messageTime,
					messageTime.filter((t) => t !== null),
				),
			)
			.map(([fields, time]) => ({ t: "hook" as const, fields, time })),
	},
	{
		weight: 4,
		arbitrary: fc.record(
			{
				t: fc.constant("compaction" as const),
				summary: text,
				tokensBefore: fc.nat(),
				kept: fc.constantFrom<Kept>(
					"ancestor",
					"ancestor",
					"ancestor",
					"itself",
					"later",
					"elsewhere",
					"missing",
					"absent",
					"index-header",
					"index-odd",
				),
				pick: fc.nat(),
			},
			{ requiredKeys: ["t", "summary", "kept", "pick"] },
		),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			t: fc.constant("branch_summary" as const),
			summary: fc.oneof(text, fc.constant("")),
			pick: fc.option(fc.nat(), { nil: undefined }),
		}),
	},
	{
		weight: 3,
		arbitrary: customFields.map((fields) => ({ t: "custom_message" as const, fields })),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("custom" as const),
			customType: fc.constantFrom("extension_state", "todo", "compact_context_v0"),
			data: json,
		}),
	},
	{
		weight: 1,
		arbitrary: text.map((summary) => ({ t: "compact_context" as const, summary })),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("model_change" as const),
			provider: text,
			modelId: text,
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("thinking_level_change" as const),
			thinkingLevel: fc.constantFrom("off", "low", "medium", "high"),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record(
			{ t: fc.constant("label" as const), pick: fc.nat(), label: text },
			{ requiredKeys: ["t", "pick"] },
		),
	},
	{
		weight: 2,
		arbitrary: fc.record(
			{ t: fc.constant("session_info" as const), name: text },
			{ requiredKeys: ["t"] },
		),
	},
	{
		weight: 1,
		arbitrary: fc
			.constantFrom("future_entry", "Message", "")
			.map((type) => ({ t: "unknown" as const, type })),
	},
);

const parent: fc.Arbitrary<Parent> = fc.oneof(
	{ weight: 10, arbitrary: fc.constant({ to: "previous" as const }) },
	{ weight: 4, arbitrary: fc.nat().map((n) => ({ to: "earlier" as const, n })) },
	{ weight: 1, arbitrary: fc.nat().map((n) => ({ to: "later" as const, n })) },
	{ weight: 1, arbitrary: fc.constant({ to: "root" as const }) },
	{ weight: 1, arbitrary: fc.nat().map((n) => ({ to: "nothing" as const, n })) },
);

/** An entry's timestamp: what pi writes (null), or another date form, or no date. */
const oddTime: fc.Arbitrary<string | null> = fc.oneof(
	{ weight: 20, arbitrary: fc.constant(null) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			"not a date",
			"2026-01-02",
			"2026-01-02T03:04:05",
			"2026-01-02T03:04:05.123+02:00",
			"2026-01-02T03:04:05Z",
			"Fri, 02 Jan 2026 03:04:05 GMT",
		),
	},
);

const junk: fc.Arbitrary<Junk> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc
			.constantFrom("", " \t", "\r", "\u00a0", "\u2028", "\u3000 ")
			.map((line) => ({ kind: "blank" as const, line })),
	},
	{
		weight: 3,
		arbitrary: fc
			.constantFrom(
				"{",
				"not json",
				'{"type":"message","id":"cut',
				'{"type":"label","id":"x","parentId":null,"timestamp":"t","targetId":"x"}{"type":"label"}',
				"undefined",
				'\ufeff{"type":"label","id":"bom","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","targetId":"x"}',
			)
			.map((line) => ({ kind: "malformed" as const, line })),
	},
	{
		weight: 1,
		arbitrary: fc
			.constantFrom("5", '"text"', "[]", "true")
			.map((line) => ({ kind: "scalar" as const, line })),
	},
	{
		weight: 1,
		arbitrary: fc
			.constantFrom("$header", '{"type":"session","version":3,"id":"another"}')
			.map((line) => ({ kind: "header" as const, line })),
	},
);

/** Ids that are keys of every plain object, look like numbers, or name the session. */
export const ODD_IDS = ["__proto__", "constructor", "toString", "0", "1e3", " e1", "session-fuzz"];

const node: fc.Arbitrary<Node> = fc.record({
	body,
	parent,
	idText: fc.oneof(
		{ weight: 12, arbitrary: fc.constant(null) },
		{
			weight: 1,
			arbitrary: fc.oneof(
				fc.constantFrom(...ODD_IDS),
				text.filter((t) => t !== ""),
			),
		},
	),
	dup: fc.oneof(
		{ weight: 12, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: fc.nat().map((n) => ({ n })) },
	),
	time: oddTime,
	junkBefore: fc.oneof(
		{ weight: 8, arbitrary: fc.constant<Junk[]>([]) },
		{ weight: 1, arbitrary: fc.array(junk, { minLength: 1, maxLength: 2 }) },
	),
	pad: fc.oneof(
		{ weight: 20, arbitrary: fc.constant(false) },
		{ weight: 1, arbitrary: fc.constant(true) },
	),
	crJoin: fc.oneof(
		{ weight: 40, arbitrary: fc.constant(false) },
		{ weight: 1, arbitrary: fc.constant(true) },
	),
});

/** A pi session log of up to `maxEntries` entries (as a spec: see {@link buildPiLog}). */
export function piLogSpec(maxEntries = 24): fc.Arbitrary<PiLogSpec> {
	return fc.record({
		version: fc.constantFrom<1 | 2 | 3>(1, 2, 3, 3, 3),
		nodes: fc.array(node, { maxLength: maxEntries, size: "medium" }),
		eol: fc.oneof(
			{ weight: 6, arbitrary: fc.constant("\n" as const) },
			{ weight: 1, arbitrary: fc.constant("\r\n" as const) },
		),
		lead: fc.oneof(
			{ weight: 10, arbitrary: fc.constant("") },
			{
				weight: 1,
				arbitrary: fc.constantFrom("\ufeff", "\n \n", "\ufeff\n", "\u00a0\n", "\t\r\n"),
			},
		),
		trailing: fc.oneof(
			{ weight: 6, arbitrary: fc.constant<Junk[]>([]) },
			{
				weight: 1,
				arbitrary: fc.array(
					junk.filter((j) => j.kind !== "scalar"),
					{ minLength: 1, maxLength: 2 },
				),
			},
		),
		v1Explicit: fc.boolean(),
		v1Ids: fc.boolean(),
		headerExtras: fc.record(
			{ provider: text, modelId: text, thinkingLevel: fc.constantFrom("off", "high") },
			{ requiredKeys: [] },
		),
	});
}

/**
 * fast-check arbitraries for session logs: valid logs (a version 3 header and
 * a tree of entries of every kind) and the serializer that writes them as
 * JSONL. Generated values are plain data (ids and references are picked with
 * numbers and resolved when the log is built), so counterexamples shrink and
 * print well. Their text and messages are in `arbitrary-text.ts`, damage to
 * their bytes in `corruptions.ts`, lines at the edge of validity in
 * `entry-lines.ts`.
 */
import fc from "fast-check";
import {
	assistantMessage,
	bashMessage,
	customRoleMessage,
	imageBlock,
	json,
	summaryText,
	text,
	textBlock,
	toolName,
	toolResultMessage,
	userMessage,
} from "./arbitrary-text.js";

export type JsonObject = { [key: string]: unknown };

/** A plain JSON object (not null, not an array). */
export const isObject = (value: unknown): value is JsonObject =>
	typeof value === "object" && value !== null && !Array.isArray(value);

export interface LogEntry extends JsonObject {
	type: string;
	id: string;
	parentId: string | null;
	timestamp: string;
}

export interface SessionLog {
	header: JsonObject;
	entries: LogEntry[];
	/** The line ending the serializer writes. */
	eol: "\n" | "\r\n";
	/** A blank line is written before the entry at each of these indices. */
	blankBefore: number[];
}

// ── entries ─────────────────────────────────────────────────────────────────

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
	fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });

const EXTRA_KEYS = ["extra", "__proto__", "constructor", "toString", "hasOwnProperty"];

/** A `session_metadata` patch: any of the known keys (null removes), sometimes unknown keys. */
export const metadataData: fc.Arbitrary<JsonObject> = fc
	.tuple(
		fc.record(
			{
				harnessIntroduction: nullable(text),
				memory: nullable(text),
				tools: nullable(fc.array(toolName, { maxLength: 8 })),
				cwd: nullable(text),
				collapseNodeId: nullable(
					fc.oneof(text, fc.constantFrom("", "  ", "\t\n", "node-01JEXAMPLE", "\u2028")),
				),
				sourceSessionId: nullable(text),
			},
			{ requiredKeys: [] },
		),
		fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), json), { maxLength: 2 }),
	)
	.map(([known, extras]) => {
		const data: JsonObject = { ...known };
		for (const [key, value] of extras) {
			Object.defineProperty(data, key, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		return data;
	});

/** How an entry picks its parent: the entry before it, any earlier one, or none. */
type ParentPick = { to: "previous" } | { to: "any"; n: number } | { to: "root" };
const parentPick: fc.Arbitrary<ParentPick> = fc.oneof(
	{ weight: 8, arbitrary: fc.constant({ to: "previous" as const }) },
	{ weight: 3, arbitrary: fc.nat().map((n) => ({ to: "any" as const, n })) },
	{ weight: 1, arbitrary: fc.constant({ to: "root" as const }) },
);

/** The type-specific part of an entry; `pick` resolves a reference to another entry. */
type Body =
	| { t: "message"; message: JsonObject }
	| {
			t: "compaction";
			summary: string;
			tokensBefore: number;
			firstKept: "ancestor" | "other" | "unknown" | "absent";
			pick: number;
	  }
	| { t: "branch_summary"; summary: string; pick: number }
	| { t: "custom_message"; fields: JsonObject }
	| { t: "compact_context"; summary: string }
	| { t: "session_metadata"; data: JsonObject }
	| { t: "custom"; customType: string; data: unknown }
	| { t: "model_change"; provider: string; modelId: string }
	| { t: "thinking_level_change"; thinkingLevel: string }
	| { t: "label"; pick: number; label: string | null }
	| { t: "session_info"; name: string | null };

const body: fc.Arbitrary<Body> = fc.oneof(
	{ weight: 6, arbitrary: userMessage.map((message) => ({ t: "message" as const, message })) },
	{ weight: 5, arbitrary: assistantMessage.map((message) => ({ t: "message" as const, message })) },
	{
		weight: 2,
		arbitrary: toolResultMessage.map((message) => ({ t: "message" as const, message })),
	},
	{ weight: 1, arbitrary: bashMessage.map((message) => ({ t: "message" as const, message })) },
	{
		weight: 1,
		arbitrary: customRoleMessage.map((message) => ({ t: "message" as const, message })),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			t: fc.constant("compaction" as const),
			summary: text,
			tokensBefore: fc.nat(),
			firstKept: fc.constantFrom("ancestor" as const, "ancestor", "other", "unknown", "absent"),
			pick: fc.nat(),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("branch_summary" as const),
			summary: fc.oneof(text, fc.constant("")),
			pick: fc.nat(),
		}),
	},
	{
		weight: 1,
		arbitrary: fc
			.record(
				{
					customType: text,
					content: fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 })),
					display: fc.boolean(),
					details: json,
				},
				{ requiredKeys: ["customType", "content", "display"] },
			)
			.map((fields) => ({ t: "custom_message" as const, fields })),
	},
	{
		weight: 2,
		arbitrary: summaryText.map((summary) => ({ t: "compact_context" as const, summary })),
	},
	{
		weight: 3,
		arbitrary: metadataData.map((data) => ({ t: "session_metadata" as const, data })),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("custom" as const),
			customType: fc.constantFrom("extension_state", "compact_context_v0", "Session_Metadata"),
			data: json,
		}),
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
			thinkingLevel: fc.oneof(fc.constantFrom("off", "low", "medium", "high"), text),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("label" as const),
			pick: fc.nat(),
			label: fc.option(text, { nil: null }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			t: fc.constant("session_info" as const),
			name: fc.option(text, { nil: null }),
		}),
	},
);

interface Node {
	body: Body;
	parent: ParentPick;
	/** Part of the id after its unique index (the id stays unique whatever it is). */
	idTag: string;
	/** A timestamp that is a string but not a date (the contract only asks for a string). */
	oddTime: boolean;
}

const node: fc.Arbitrary<Node> = fc.record({
	body,
	parent: parentPick,
	idTag: fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: text }),
	oddTime: fc.oneof(
		{ weight: 15, arbitrary: fc.constant(false) },
		{ weight: 1, arbitrary: fc.constant(true) },
	),
});

const BASE_TIME = Date.UTC(2026, 0, 1);

/** The entry id of the entry at `index`: `e<index>`, then `·<tag>` when there is a tag. */
export function entryId(index: number, tag = ""): string {
	return tag === "" ? `e${index}` : `e${index}·${tag}`;
}

/** Resolves the generated nodes into entries: ids, parents and references. */
function build(nodes: readonly Node[]): LogEntry[] {
	const entries: LogEntry[] = [];
	const parentOf = new Map<string, string | null>();
	nodes.forEach((n, i) => {
		const id = entryId(i, n.idTag);
		let parentId: string | null = null;
		if (i > 0 && n.parent.to === "previous") parentId = (entries[i - 1] as LogEntry).id;
		else if (i > 0 && n.parent.to === "any") parentId = (entries[n.parent.n % i] as LogEntry).id;
		const timestamp = n.oddTime ? "not a date" : new Date(BASE_TIME + i * 1000).toISOString();
		const envelope = { id, parentId, timestamp };
		const b = n.body;
		let fields: JsonObject;
		switch (b.t) {
			case "message":
				fields = { type: "message", message: b.message };
				break;
			case "compaction": {
				const ancestors: string[] = [];
				for (let x = parentId; x !== null; x = parentOf.get(x) ?? null) ancestors.push(x);
				const others = entries.map((e) => e.id).filter((e) => !ancestors.includes(e));
				others.push(id);
				let firstKept: string | undefined;
				if (b.firstKept === "ancestor" && ancestors.length > 0)
					firstKept = ancestors[b.pick % ancestors.length];
				else if (b.firstKept === "other") firstKept = others[b.pick % others.length];
				else if (b.firstKept !== "absent") firstKept = `missing·${b.pick}`;
				fields = {
					type: "compaction",
					summary: b.summary,
					...(firstKept === undefined ? {} : { firstKeptEntryId: firstKept }),
					tokensBefore: b.tokensBefore,
				};
				break;
			}
			case "branch_summary":
				fields = {
					type: "branch_summary",
					fromId: i === 0 ? "nowhere" : (entries[b.pick % i] as LogEntry).id,
					summary: b.summary,
				};
				break;
			case "custom_message":
				fields = { type: "custom_message", ...b.fields };
				break;
			case "compact_context":
				fields = { type: "custom", customType: "compact_context", data: { summary: b.summary } };
				break;
			case "session_metadata":
				fields = { type: "custom", customType: "session_metadata", data: b.data };
				break;
			case "custom":
				fields = { type: "custom", customType: b.customType, data: b.data };
				break;
			case "model_change":
				fields = { type: "model_change", provider: b.provider, modelId: b.modelId };
				break;
			case "thinking_level_change":
				fields = { type: "thinking_level_change", thinkingLevel: b.thinkingLevel };
				break;
			case "label":
				fields = {
					type: "label",
					targetId: i === 0 ? "nowhere" : (entries[b.pick % i] as LogEntry).id,
					...(b.label === null ? {} : { label: b.label }),
				};
				break;
			case "session_info":
				fields = { type: "session_info", ...(b.name === null ? {} : { name: b.name }) };
				break;
		}
		// Through JSON once, so the entries are exactly what a reader of the file sees.
		const built = JSON.parse(JSON.stringify({ ...fields, ...envelope })) as LogEntry;
		entries.push(built);
		parentOf.set(id, parentId);
	});
	return entries;
}

export const header: fc.Arbitrary<JsonObject> = fc
	.record(
		{
			id: fc.oneof(fc.constant("session-test"), text),
			cwd: fc.oneof(fc.constant("/home/user/project"), text),
			parentSession: text,
		},
		{ requiredKeys: ["id", "cwd"] },
	)
	.map((h) => ({
		type: "session",
		version: 3,
		id: h.id,
		timestamp: "2026-01-01T00:00:00.000Z",
		cwd: h.cwd,
		...(h.parentSession === undefined ? {} : { parentSession: h.parentSession }),
	}));

/** A valid session log of up to `maxEntries` entries. */
export function sessionLog({
	maxEntries = 24,
}: {
	maxEntries?: number;
} = {}): fc.Arbitrary<SessionLog> {
	return fc
		.record({
			header,
			nodes: fc.array(node, { maxLength: maxEntries, size: "medium" }),
			eol: fc.oneof(
				{ weight: 5, arbitrary: fc.constant("\n" as const) },
				{ weight: 1, arbitrary: fc.constant("\r\n" as const) },
			),
			blankBefore: fc.array(fc.nat({ max: maxEntries }), { maxLength: 2 }),
		})
		.map(({ header, nodes, eol, blankBefore }) => ({
			header,
			entries: build(nodes),
			eol,
			blankBefore,
		}));
}

// ── serializer ──────────────────────────────────────────────────────────────

/** The log's lines, without line endings: the header, then the entries (and blank lines). */
export function toLines(log: SessionLog): string[] {
	const lines = [JSON.stringify(log.header)];
	log.entries.forEach((entry, i) => {
		for (const at of log.blankBefore) if (at === i) lines.push(i % 2 === 0 ? "" : " \t");
		lines.push(JSON.stringify(entry));
	});
	return lines;
}

/** The log as file text: every line ends with the log's line ending. */
export function serialize(log: SessionLog): string {
	return toLines(log)
		.map((line) => line + log.eol)
		.join("");
}

/**
 * fast-check arbitraries for session logs: valid logs (a version 3 header and
 * a tree of entries of every kind), the serializer that writes them as JSONL,
 * and corruptions of a log's bytes. Generated values are plain data (ids and
 * references are picked with numbers and resolved when the log is built), so
 * counterexamples shrink and print well.
 */
import fc from "fast-check";
import { SUMMARY_LABELS } from "../../src/view/schema.js";
import { MARKERS } from "./expected.js";

export type JsonObject = { [key: string]: unknown };

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

// ── strings ─────────────────────────────────────────────────────────────────

/** Text that tries to break out of its place: section tags, framing markers, line breaks. */
export const HOSTILE = [
	"</environment>",
	"<environment>",
	"<lineage>",
	"</lineage>",
	"<harness>",
	"</harness>",
	"<tools>",
	"</tools>",
	"<memory>",
	"</memory>",
	"<summary>",
	"</summary>",
	"< /LINEAGE >",
	...MARKERS,
	...MARKERS.map((marker) => `\\${marker}`),
	"{{summary}}",
	"{{> harness}}",
	"goal: ",
	"\ncritical context: ",
	"\n",
	"\r\n",
	"\r",
	"\u2028",
	"\u0085",
	"\t",
	"\u0000",
	"\ud800",
	"\udc00",
	"é",
	"👩‍💻",
	"\u202e",
	"\ufeff",
	"__proto__",
];

/** Short text: unicode, line breaks, and sometimes hostile markup. */
export const text: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
	{ weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
	{
		weight: 3,
		arbitrary: fc
			.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 })), { maxLength: 6 })
			.map((parts) => parts.join("")),
	},
);

const KNOWN_TOOLS = [
	"read",
	"write",
	"edit",
	"bash",
	"grep",
	"outline",
	"ls",
	"git",
	"dag_run",
	"dag_wait",
	"session_graph_read",
	"session_tool_result",
	"mystery",
];
export const toolName: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...KNOWN_TOOLS) },
	{ weight: 1, arbitrary: text },
);

/** A compact summary: plain text, labelled components (any order, repeats), or an over-long value. */
export const summaryText: fc.Arbitrary<string> = fc.oneof(
	{ weight: 2, arbitrary: text },
	{
		weight: 4,
		arbitrary: fc
			.array(
				fc.tuple(fc.constantFrom(...SUMMARY_LABELS), fc.constantFrom(":", ": ", " :\t"), text),
				{ maxLength: 7 },
			)
			.map((parts) => parts.map(([label, colon, value]) => `${label}${colon}${value}`).join("\n")),
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(fc.constantFrom(...SUMMARY_LABELS), text, fc.integer({ min: 100, max: 800 }))
			.map(([label, value, times]) => `${label}: ${(value === "" ? "é" : value).repeat(times)}`),
	},
);

// ── messages ────────────────────────────────────────────────────────────────

const json = fc.jsonValue({ maxDepth: 2 });
const textBlock = text.map((t) => ({ type: "text", text: t }));
const imageBlock = fc.record({
	type: fc.constant("image"),
	data: fc.base64String({ maxLength: 16 }),
	mimeType: fc.constantFrom("image/png", "image/jpeg"),
});
const thinkingBlock = text.map((t) => ({ type: "thinking", thinking: t }));
const toolCallBlock = fc.record({
	type: fc.constant("toolCall"),
	id: text,
	name: toolName,
	arguments: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
});
const userContent = fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }));
const millis = fc.nat({ max: 2_000_000_000_000 });

const userMessage = fc.record({
	role: fc.constant("user"),
	content: userContent,
	timestamp: millis,
});
const assistantMessage = fc.record(
	{
		role: fc.constant("assistant"),
		content: fc.array(fc.oneof(textBlock, thinkingBlock, toolCallBlock), { maxLength: 4 }),
		api: fc.constant("anthropic-messages"),
		provider: fc.oneof(fc.constant("anthropic"), text),
		model: fc.oneof(fc.constant("claude-test"), text),
		usage: fc.constant({ input: 1, output: 2 }),
		stopReason: fc.constantFrom("stop", "toolUse", "length", "error"),
		errorMessage: text,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "content", "api", "usage", "stopReason", "timestamp"] },
);
const toolResultMessage = fc.record(
	{
		role: fc.constant("toolResult"),
		toolCallId: text,
		toolName,
		content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
		isError: fc.boolean(),
		details: json,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "toolCallId", "toolName", "content", "isError", "timestamp"] },
);
const bashMessage = fc.record(
	{
		role: fc.constant("bashExecution"),
		command: text,
		output: text,
		exitCode: fc.option(fc.integer({ min: -1, max: 255 }), { nil: null }),
		cancelled: fc.boolean(),
		truncated: fc.boolean(),
		fullOutputPath: text,
		excludeFromContext: fc.boolean(),
		timestamp: millis,
	},
	{
		requiredKeys: ["role", "command", "output", "exitCode", "cancelled", "truncated", "timestamp"],
	},
);
const customRoleMessage = fc.record(
	{
		role: fc.constant("custom"),
		customType: text,
		content: userContent,
		display: fc.boolean(),
		details: json,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "customType", "content", "display", "timestamp"] },
);

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

// ── corruptions ─────────────────────────────────────────────────────────────

export const CORRUPTION_KINDS = [
	"torn",
	"flipByte",
	"removeLine",
	"duplicateLine",
	"breakParent",
	"cycle",
	"wrongType",
	"hugeString",
	"badUtf8",
] as const;
export type CorruptionKind = (typeof CORRUPTION_KINDS)[number];

/** A corruption: its kind and three numbers that pick where and how. */
export interface Corruption {
	kind: CorruptionKind;
	a: number;
	b: number;
	c: number;
}

export const corruption: fc.Arbitrary<Corruption> = fc.record({
	kind: fc.oneof(
		{ weight: 3, arbitrary: fc.constant("torn" as const) },
		{ weight: 4, arbitrary: fc.constant("flipByte" as const) },
		{ weight: 2, arbitrary: fc.constant("removeLine" as const) },
		{ weight: 2, arbitrary: fc.constant("duplicateLine" as const) },
		{ weight: 2, arbitrary: fc.constant("breakParent" as const) },
		{ weight: 2, arbitrary: fc.constant("cycle" as const) },
		{ weight: 3, arbitrary: fc.constant("wrongType" as const) },
		{ weight: 1, arbitrary: fc.constant("hugeString" as const) },
		{ weight: 2, arbitrary: fc.constant("badUtf8" as const) },
	),
	a: fc.nat(),
	b: fc.nat(),
	c: fc.nat(),
});

/** What a corruption did. Line numbers are 1-based, in the corrupted bytes. */
export interface Corrupted {
	bytes: Buffer;
	kind: CorruptionKind;
	/** Whether it changed anything (some need a line of a certain kind to act on). */
	applied: boolean;
	/** The line that was damaged, when one line is. */
	damagedLine?: number;
	/** For a cycle: the lines of the entries on it. */
	cycleLines?: number[];
}

const NEWLINE = 0x0a;

/** The lines of `bytes` (without their newline) and whether the last one ends in a newline. */
export function splitLines(bytes: Buffer): { lines: Buffer[]; terminated: boolean } {
	const lines: Buffer[] = [];
	let start = 0;
	for (;;) {
		const nl = bytes.indexOf(NEWLINE, start);
		if (nl === -1) break;
		lines.push(bytes.subarray(start, nl));
		start = nl + 1;
	}
	const terminated = start === bytes.length;
	if (!terminated) lines.push(bytes.subarray(start));
	return { lines, terminated };
}

function joinLines(lines: readonly Buffer[], terminated: boolean): Buffer {
	const parts: Buffer[] = [];
	lines.forEach((line, i) => {
		parts.push(line);
		if (terminated || i < lines.length - 1) parts.push(Buffer.from([NEWLINE]));
	});
	return Buffer.concat(parts);
}

/** Whether a line holds only spaces, tabs and carriage returns (the reader skips it). */
export function isBlankLine(line: Buffer): boolean {
	for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
	return true;
}

function parseObject(line: Buffer): JsonObject | undefined {
	try {
		const value: unknown = JSON.parse(line.toString("utf8"));
		return typeof value === "object" && value !== null && !Array.isArray(value)
			? (value as JsonObject)
			: undefined;
	} catch {
		return undefined;
	}
}

const isObject = (value: unknown): value is JsonObject =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** Indices (0-based) of the entry lines that hold a JSON object with a string id. */
function entryLines(lines: readonly Buffer[]): { index: number; entry: JsonObject }[] {
	const out: { index: number; entry: JsonObject }[] = [];
	for (let i = 1; i < lines.length; i++) {
		const entry = parseObject(lines[i] as Buffer);
		if (entry !== undefined && typeof entry.id === "string") out.push({ index: i, entry });
	}
	return out;
}

const INVALID_UTF8 = [
	[0xff],
	[0xc3],
	[0xed, 0xa0, 0x80],
	[0xc0, 0x80],
	[0xe2, 0x82],
	[0xf8, 0x88, 0x80, 0x80, 0x80],
];
const HUGE_UNITS = ["x", "é", "👩‍💻", "\\", "\n"];

/** Applies one corruption to a log's bytes. */
export function corrupt(bytes: Buffer, { kind, a, b, c }: Corruption): Corrupted {
	const { lines, terminated } = splitLines(bytes);
	const same: Corrupted = { bytes, kind, applied: false };
	const done = (out: Buffer[], term: boolean, extra: Partial<Corrupted> = {}): Corrupted => ({
		bytes: joinLines(out, term),
		kind,
		applied: true,
		...extra,
	});
	const nonBlank: number[] = [];
	for (let i = 1; i < lines.length; i++) if (!isBlankLine(lines[i] as Buffer)) nonBlank.push(i);
	switch (kind) {
		case "torn": {
			// A crash mid-append: the last line loses its newline and maybe its end.
			if (lines.length === 0) return same;
			const last = lines.length - 1;
			const line = lines[last] as Buffer;
			const keep = line.length === 0 ? 0 : 1 + (a % line.length);
			const out = [...lines];
			out[last] = line.subarray(0, keep);
			return done(out, false, { damagedLine: last + 1 });
		}
		case "flipByte": {
			if (bytes.length === 0) return same;
			const out = Buffer.from(bytes);
			const at = a % out.length;
			const mask = b % 2 === 0 ? 1 << (c % 8) : 1 + (c % 255);
			out[at] = (out[at] as number) ^ mask;
			let line = 1;
			for (let i = 0; i < at; i++) if (bytes[i] === NEWLINE) line++;
			return { bytes: out, kind, applied: true, damagedLine: line };
		}
		case "removeLine": {
			if (nonBlank.length === 0) return same;
			const index = nonBlank[a % nonBlank.length] as number;
			return done(
				lines.filter((_, i) => i !== index),
				terminated || index !== lines.length - 1,
			);
		}
		case "duplicateLine": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index } = candidates[a % candidates.length] as { index: number };
			// Insert the copy anywhere after the header (before a torn last line).
			const slots = terminated ? lines.length : lines.length - 1;
			const at = 1 + (b % slots);
			const out = [...lines];
			out.splice(at, 0, lines[index] as Buffer);
			const later = at <= index ? index + 1 : at;
			return done(out, terminated, { damagedLine: later + 1 });
		}
		case "breakParent": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index, entry } = candidates[a % candidates.length] as {
				index: number;
				entry: JsonObject;
			};
			const out = [...lines];
			out[index] = Buffer.from(JSON.stringify({ ...entry, parentId: `missing·${b}` }));
			return done(out, terminated, { damagedLine: index + 1 });
		}
		case "cycle": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const byId = new Map(candidates.map((x) => [x.entry.id as string, x]));
			// For each entry, its descendants (entries whose parent chain reaches it).
			const chains = candidates.map((x) => {
				const chain: (typeof x)[] = [x];
				let cur = x;
				for (let steps = 0; steps < candidates.length; steps++) {
					const p =
						typeof cur.entry.parentId === "string" ? byId.get(cur.entry.parentId) : undefined;
					if (p === undefined) break;
					chain.push(p);
					cur = p;
				}
				return chain;
			});
			const pairs: { top: number; path: number[] }[] = [];
			for (const chain of chains) {
				for (let k = 1; k < chain.length; k++) {
					pairs.push({
						top: (chain[k] as { index: number }).index,
						path: chain.slice(0, k + 1).map((x) => x.index),
					});
				}
			}
			const out = [...lines];
			if (pairs.length === 0) {
				// No entry has a descendant: a self-reference.
				const { index, entry } = candidates[a % candidates.length] as {
					index: number;
					entry: JsonObject;
				};
				out[index] = Buffer.from(JSON.stringify({ ...entry, parentId: entry.id }));
				return done(out, terminated, { damagedLine: index + 1, cycleLines: [index + 1] });
			}
			// The earlier entry (top) gets a later descendant (path[0]) as its parent.
			const { top, path } = pairs[a % pairs.length] as { top: number; path: number[] };
			const topEntry = parseObject(lines[top] as Buffer) as JsonObject;
			const descendant = parseObject(lines[path[0] as number] as Buffer) as JsonObject;
			out[top] = Buffer.from(JSON.stringify({ ...topEntry, parentId: descendant.id }));
			return done(out, terminated, {
				damagedLine: top + 1,
				cycleLines: path.map((i) => i + 1),
			});
		}
		case "wrongType": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index, entry } = candidates[a % candidates.length] as {
				index: number;
				entry: JsonObject;
			};
			// Each makes the entry invalid for the schema (a field of the wrong type, or missing).
			const mutations: [JsonObject, string, unknown][] = [
				[entry, "timestamp", 1767225600000],
				[entry, "id", 7],
				[entry, "id", ""],
				[entry, "parentId", 42],
				[entry, "type", 3],
			];
			const set = (target: unknown, fields: [string, unknown][]) => {
				if (isObject(target)) for (const [k, v] of fields) mutations.push([target, k, v]);
			};
			const { message, data } = entry;
			const content: [string, unknown][] = [
				["content", 12],
				["content", [1]],
				["content", [{ text: "no type" }]],
				["content", [{ type: 5 }]],
			];
			if (entry.type === "message") {
				mutations.push([entry, "message", "not an object"]);
				const role = isObject(message) ? message.role : undefined;
				if (role === "user" || role === "assistant") set(message, content);
				if (role === "toolResult") {
					set(message, [...content, ["toolCallId", 1], ["toolName", null]]);
				}
				if (role === "custom") set(message, [...content, ["customType", 1], ["display", "true"]]);
				if (role === "bashExecution") {
					set(message, [
						["command", 5],
						["output", null],
						["exitCode", "0"],
						["cancelled", "yes"],
						["truncated", 1],
						["fullOutputPath", 1],
						["excludeFromContext", "no"],
					]);
				}
			}
			if (entry.type === "custom") {
				if (entry.customType === "session_metadata") {
					mutations.push([entry, "data", []]);
					set(data, [
						["tools", "read"],
						["tools", [1]],
						["memory", 5],
						["collapseNodeId", 5],
						["harnessIntroduction", false],
					]);
				} else if (entry.customType === "compact_context") {
					mutations.push([entry, "data", "summary"]);
					set(data, [["summary", 99]]);
				} else {
					mutations.push([entry, "customType", 1]);
				}
			}
			if (entry.type === "compaction") {
				set(entry, [
					["summary", false],
					["firstKeptEntryId", 5],
					["tokensBefore", "10"],
				]);
			}
			if (entry.type === "branch_summary") {
				set(entry, [
					["summary", false],
					["fromId", 3],
				]);
			}
			if (entry.type === "custom_message") {
				set(entry, [...content, ["customType", null], ["display", "yes"]]);
			}
			if (entry.type === "model_change") set(entry, [["provider", 1]]);
			if (entry.type === "thinking_level_change") set(entry, [["thinkingLevel", null]]);
			if (entry.type === "label") set(entry, [["targetId", 5]]);
			if (entry.type === "session_info") set(entry, [["name", 5]]);
			const [target, key, value] = mutations[b % mutations.length] as [JsonObject, string, unknown];
			target[key] = value;
			const out = [...lines];
			out[index] = Buffer.from(JSON.stringify(entry));
			return done(out, terminated, { damagedLine: index + 1 });
		}
		case "hugeString": {
			// A valid entry with a string of a few MB (more than one read chunk).
			const unit = HUGE_UNITS[b % HUGE_UNITS.length] as string;
			const bytesWanted = 2_000_000 + (c % 4_000_000);
			const content = unit.repeat(Math.ceil(bytesWanted / Buffer.byteLength(unit)));
			const slots = terminated ? lines.length : lines.length - 1;
			if (slots < 1) return same;
			const at = 1 + (a % slots);
			const before = entryLines(lines.slice(0, at));
			const parentId = before.length === 0 ? null : (before[before.length - 1]?.entry.id ?? null);
			const huge = {
				type: "message",
				id: `huge·${a}·${c}`,
				parentId,
				timestamp: "2026-01-02T00:00:00.000Z",
				message: { role: "user", content, timestamp: 1 },
			};
			const out = [...lines];
			out.splice(at, 0, Buffer.from(JSON.stringify(huge)));
			return done(out, terminated);
		}
		case "badUtf8": {
			if (nonBlank.length === 0) return same;
			const index = nonBlank[a % nonBlank.length] as number;
			const line = lines[index] as Buffer;
			const at = b % (line.length + 1);
			const bad = Buffer.from(INVALID_UTF8[c % INVALID_UTF8.length] as number[]);
			const out = [...lines];
			out[index] = Buffer.concat([line.subarray(0, at), bad, line.subarray(at)]);
			return done(out, terminated, { damagedLine: index + 1 });
		}
	}
}

/** Applies corruptions one after another; the result describes the last one. */
export function corruptAll(bytes: Buffer, corruptions: readonly Corruption[]): Corrupted {
	let out: Corrupted = { bytes, kind: "flipByte", applied: false };
	for (const c of corruptions) {
		const next = corrupt(out.bytes, c);
		out = { ...next, applied: out.applied || next.applied };
	}
	return out;
}

// ── appends in pieces ───────────────────────────────────────────────────────

/** Where a writer pauses: anywhere, or just before a line ending (before its `\r` or its `\n`). */
export interface CutPick {
	at: "anywhere" | "beforeEol";
	n: number;
}

export const cutPicks: fc.Arbitrary<CutPick[]> = fc.array(
	fc.record({ at: fc.constantFrom("anywhere" as const, "beforeEol" as const), n: fc.nat() }),
	{ minLength: 1, maxLength: 5 },
);

/**
 * The byte offsets at which a log is written in pieces, ascending, the last
 * the whole length. None falls inside the header line's JSON, so every prefix
 * has a header.
 */
export function cutPoints(bytes: Buffer, picks: readonly CutPick[]): number[] {
	const headerEnd = bytes.indexOf(NEWLINE);
	const eols: number[] = [];
	for (let i = headerEnd; i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) {
		eols.push(i);
		if (bytes[i - 1] === 0x0d) eols.push(i - 1);
	}
	const span = bytes.length - headerEnd + 1;
	const cuts = new Set(
		picks.map(({ at, n }) =>
			at === "beforeEol" ? (eols[n % eols.length] as number) : headerEnd + (n % span),
		),
	);
	cuts.add(bytes.length);
	return [...cuts].sort((x, y) => x - y);
}

// ── entry lines near the edge of validity ───────────────────────────────────

/**
 * JSON literals written into a line as they are, so the parser sees them:
 * `1e400` parses to Infinity, `1e-400` to 0, `-0` to -0.
 */
export const RAW_LITERALS = [
	"1e400",
	"-1e400",
	"1e-400",
	"-0",
	"0.5",
	"1E2",
	"true",
	"null",
	'""',
	'"x"',
	"[]",
	"{}",
	"[1]",
	'[{"type":"text"}]',
	'[{"type":5}]',
	'[{"text":"no type"}]',
	'{"role":"user"}',
];

/** Where a mutation lands: the entry, its message, or the first block of its content. */
export type EditTarget = "entry" | "message" | "block";

export interface Edit {
	target: EditTarget;
	/** A key of the target (an existing one or another). */
	key: string;
	/** Remove the key, or set it to a raw JSON literal. */
	value: { remove: true } | { raw: string };
}

const EDIT_KEYS = [
	"type",
	"id",
	"parentId",
	"timestamp",
	"message",
	"role",
	"content",
	"toolCallId",
	"toolName",
	"command",
	"output",
	"exitCode",
	"cancelled",
	"truncated",
	"fullOutputPath",
	"excludeFromContext",
	"customType",
	"display",
	"summary",
	"firstKeptEntryId",
	"tokensBefore",
	"fromId",
	"provider",
	"modelId",
	"thinkingLevel",
	"targetId",
	"label",
	"name",
	"data",
	"text",
];

/** Keys every message entry's validity depends on: most edits land on one. */
const MESSAGE_KEYS = ["id", "parentId", "timestamp", "message", "role", "content", "type"];

export const edit: fc.Arbitrary<Edit> = fc.record({
	target: fc.constantFrom<EditTarget>("entry", "message", "message", "block"),
	key: fc.oneof(
		{ weight: 3, arbitrary: fc.constantFrom(...MESSAGE_KEYS) },
		{ weight: 1, arbitrary: fc.constantFrom(...EDIT_KEYS) },
	),
	value: fc.oneof(
		{ weight: 1, arbitrary: fc.constant({ remove: true as const }) },
		{ weight: 4, arbitrary: fc.constantFrom(...RAW_LITERALS).map((raw) => ({ raw })) },
	),
});

const RAW_MARK = "\u0000raw:";

/**
 * One entry line: a valid entry of a generated log, then none to two edits,
 * each removing a field or setting one to a raw JSON literal (written into
 * the line's text, so numbers like `1e400` reach the parser as written).
 * About half the lines stay valid.
 */
export const entryLine: fc.Arbitrary<{ line: string; edits: Edit[] }> = fc
	.tuple(
		sessionLog({ maxEntries: 6 }).filter((log) => log.entries.length > 0),
		fc.nat(),
		fc.oneof(
			{ weight: 3, arbitrary: fc.constant([] as Edit[]) },
			{ weight: 3, arbitrary: fc.array(edit, { minLength: 1, maxLength: 2 }) },
		),
	)
	.map(([log, pick, edits]) => {
		const entry = structuredClone(log.entries[pick % log.entries.length]) as JsonObject;
		for (const e of edits) {
			const message = entry.message;
			const content = isObject(message) ? message.content : undefined;
			const target =
				e.target === "entry"
					? entry
					: e.target === "message"
						? message
						: Array.isArray(content)
							? content[0]
							: undefined;
			if (!isObject(target)) continue;
			if ("remove" in e.value) delete target[e.key];
			else target[e.key] = `${RAW_MARK}${e.value.raw}`;
		}
		const line = JSON.stringify(entry).replace(
			/"\\u0000raw:((?:[^"\\]|\\.)*)"/g,
			(_, raw: string) => JSON.parse(`"${raw}"`),
		);
		return { line, edits };
	});

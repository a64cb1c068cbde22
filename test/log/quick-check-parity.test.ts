/**
 * The reader's hand-written checks decide validity alone (zod only describes
 * rejections), so they must accept exactly what the schemas accept: every
 * entry kind, both ways. The generators start from valid entries and change
 * one field to a value of any JSON type (finite or not), so both sides are
 * reached often; the fractions are asserted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { logSchemas } from "../../src/log/describe.js";
import { Kind } from "../../src/log/kinds.js";
import { checkEntry, isHeader, isMetadataPatch } from "../../src/log/quick-check.js";
import { ENTRY_KEYS, INNER_KEYS } from "../support/entry-lines.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 500) * 4;
const schemas = logSchemas();
/** The entry types the schema itself knows (not the reader's own list). */
const KNOWN_TYPES: string[] = schemas.KnownEntry.options.map((o) => o.shape.type.value);

const base = { id: "e1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" };
const VALID: Record<string, unknown>[] = [
	{ ...base, type: "message", message: { role: "user", content: "hi" } },
	{
		...base,
		type: "message",
		message: { role: "assistant", content: [{ type: "text", text: "x" }] },
	},
	{
		...base,
		type: "message",
		message: { role: "toolResult", toolCallId: "c", toolName: "t", content: [] },
	},
	{
		...base,
		type: "message",
		message: {
			role: "bashExecution",
			command: "ls",
			output: "",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			fullOutputPath: "/x",
			excludeFromContext: false,
		},
	},
	{
		...base,
		type: "message",
		message: { role: "custom", customType: "x", content: "c", display: true },
	},
	{ ...base, type: "compaction", summary: "s", firstKeptEntryId: "e0", tokensBefore: 10 },
	{ ...base, type: "branch_summary", fromId: "e0", summary: "s" },
	{
		...base,
		type: "custom_message",
		customType: "x",
		content: [{ type: "text", text: "t" }],
		display: false,
	},
	{ ...base, type: "custom", customType: "other", data: 1 },
	{
		...base,
		type: "custom",
		customType: "session_metadata",
		data: { memory: "m", tools: ["a"], cwd: null },
	},
	{ ...base, type: "custom", customType: "compact_context", data: { summary: "s" } },
	{ ...base, type: "model_change", provider: "p", modelId: "m" },
	{ ...base, type: "thinking_level_change", thinkingLevel: "high" },
	{ ...base, type: "label", targetId: "e0", label: "l" },
	{ ...base, type: "session_info", name: "n" },
	{ ...base, type: "some_future_type" },
];

/** Any JSON value a line may hold, numbers beyond double range included (they parse to ±Infinity). */
const jsonValue = fc.oneof(
	fc.constantFrom(
		null,
		true,
		false,
		"",
		"x",
		0,
		-0,
		1.5,
		2 ** 53,
		"1e400",
		"-1e400",
		"user",
		"custom",
		"text",
	),
	fc.double({ noNaN: true }),
	fc.string({ maxLength: 4 }),
	fc.array(fc.oneof(fc.constant({ type: "text" }), fc.constant({}), fc.string()), { maxLength: 2 }),
	fc.dictionary(
		fc.constantFrom("type", "summary", "role"),
		fc.oneof(fc.string({ maxLength: 2 }), fc.integer()),
	),
);

/** A path to change in a valid entry: a top-level key, or one inside message/data. */
const keys = ENTRY_KEYS;
const inner = INNER_KEYS;

const mutated = fc
	.tuple(
		fc.constantFrom(...VALID),
		fc.boolean(),
		fc.constantFrom(...keys),
		fc.constantFrom(...inner),
		fc.oneof(jsonValue, fc.constant(undefined)),
		fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
	)
	.map(([valid, deep, key, innerKey, value, keep]) => {
		const text = JSON.stringify(valid, (_k, v) => v);
		let changed = text;
		if (!keep) {
			const copy = JSON.parse(text) as Record<string, Record<string, unknown>>;
			const target =
				deep && typeof copy.message === "object"
					? copy.message
					: deep && typeof copy.data === "object"
						? copy.data
						: copy;
			const k = deep ? innerKey : key;
			if (value === undefined) delete (target as Record<string, unknown>)[k];
			else
				(target as Record<string, unknown>)[k] =
					value === "1e400" ? "__INF__" : value === "-1e400" ? "__NINF__" : value;
			changed = JSON.stringify(copy).replace('"__INF__"', "1e400").replace('"__NINF__"', "-1e400");
		}
		return JSON.parse(changed) as Record<string, unknown>;
	});

/** What the schemas decide, the way the reader applies them. */
function schemaAccepts(v: Record<string, unknown>): boolean {
	const message = v.message;
	const unknownRole =
		v.type === "message" &&
		typeof message === "object" &&
		message !== null &&
		!Array.isArray(message) &&
		!["user", "assistant", "toolResult", "bashExecution", "custom"].includes(
			(message as { role: string }).role,
		);
	if (typeof v.type !== "string" || !KNOWN_TYPES.includes(v.type) || unknownRole) {
		return schemas.UnknownEntry.safeParse(v).success;
	}
	if (!schemas.KnownEntry.safeParse(v).success) return false;
	if (v.type === "custom" && v.customType === "session_metadata")
		return schemas.MetadataPatch.safeParse(v.data).success;
	if (v.type === "custom" && v.customType === "compact_context")
		return schemas.CompactContextData.safeParse(v.data).success;
	return true;
}

describe("checkEntry", () => {
	it("accepts exactly what the schemas accept, for every entry kind", () => {
		let accepted = 0;
		let runs = 0;
		fc.assert(
			fc.property(mutated, (value) => {
				runs++;
				const verdict = checkEntry(value);
				const ours = verdict >= 0;
				expect(ours, JSON.stringify(value)).toBe(schemaAccepts(value));
				if (ours) accepted++;
			}),
			{ numRuns: RUNS },
		);
		expect(accepted / runs).toBeGreaterThan(0.2);
		expect(accepted / runs).toBeLessThan(0.95);
	});

	it("refuses numbers the schema refuses: 1e400 is Infinity", () => {
		const bash = JSON.parse(
			'{"type":"message","id":"b","parentId":null,"timestamp":"t","message":{"role":"bashExecution","command":"c","output":"o","exitCode":1e400}}',
		);
		expect(bash.message.exitCode).toBe(Number.POSITIVE_INFINITY);
		expect(checkEntry(bash)).toBeLessThan(0);
		expect(schemas.KnownEntry.safeParse(bash).success).toBe(false);
		const compaction = JSON.parse(
			'{"type":"compaction","id":"k","parentId":null,"timestamp":"t","summary":"s","tokensBefore":-1e999}',
		);
		expect(checkEntry(compaction)).toBeLessThan(0);
	});

	it("gives each known kind", () => {
		expect(VALID.map((v) => checkEntry(v))).toEqual([
			Kind.Message,
			Kind.Message,
			Kind.Message,
			Kind.Message,
			Kind.Message,
			Kind.Compaction,
			Kind.BranchSummary,
			Kind.CustomMessage,
			Kind.Other,
			Kind.Metadata,
			Kind.CompactContext,
			Kind.ModelChange,
			Kind.ThinkingLevelChange,
			Kind.SessionLevel,
			Kind.SessionLevel,
			16,
		]);
	});
});

describe("isHeader and isMetadataPatch", () => {
	it("agree with their schemas", () => {
		const header = {
			type: "session",
			version: 3,
			id: "s",
			timestamp: "t",
			cwd: "/",
			parentSession: "p",
		};
		let accepted = 0;
		fc.assert(
			fc.property(
				fc.constantFrom("type", "version", "id", "timestamp", "cwd", "parentSession"),
				fc.oneof(jsonValue, fc.constant(undefined)),
				(key, value) => {
					const v: Record<string, unknown> = {
						...header,
						[key]: value === "1e400" ? Number.POSITIVE_INFINITY : value,
					};
					if (value === undefined) delete v[key];
					const ours = isHeader(v);
					expect(ours, JSON.stringify(v)).toBe(schemas.Header.safeParse(v).success);
					if (ours) accepted++;
					const patch = { [key === "version" ? "tools" : "memory"]: value };
					expect(isMetadataPatch(patch)).toBe(schemas.MetadataPatch.safeParse(patch).success);
				},
			),
			{ numRuns: RUNS },
		);
		expect(accepted).toBeGreaterThan(RUNS / 20);
	});
});

/** fast-check arbitraries for entry lines near the edge of validity, for the quick check's parity with the schemas. */
import fc from "fast-check";
import { isObject, type JsonObject, sessionLog } from "./arbitraries.js";

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

/** The keys of an entry, then those inside its message or its data. */
export const ENTRY_KEYS = [
	"type",
	"id",
	"parentId",
	"timestamp",
	"summary",
	"firstKeptEntryId",
	"tokensBefore",
	"fromId",
	"customType",
	"content",
	"display",
	"provider",
	"modelId",
	"thinkingLevel",
	"targetId",
	"label",
	"name",
	"data",
	"message",
];
export const INNER_KEYS = [
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
	"memory",
	"tools",
	"cwd",
	"templateVersion",
];

const EDIT_KEYS = [...new Set([...ENTRY_KEYS, ...INNER_KEYS, "text"])];

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

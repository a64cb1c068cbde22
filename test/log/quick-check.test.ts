/**
 * The reader's fast validity check against the zod schema, in both
 * directions, on entry lines at the edge of validity: valid entries of every
 * kind with fields removed or set to awkward JSON (`1e400` parses to
 * Infinity, which the schema refuses). The generator is checked to reach
 * both answers often, so the property cannot hold vacuously.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { logSchemas } from "../../src/log/describe.js";
import { isCertainlyValidMessageEntry } from "../../src/log/quick-check.js";
import { entryLine } from "../support/entry-lines.js";

const KnownEntrySchema = logSchemas().KnownEntry;
const RUNS = Number(process.env.FUZZ_RUNS ?? 500) * 4;

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === "object" && v !== null && !Array.isArray(v);

/** The fast path's answer for a message entry line. */
const fast = (value: Record<string, unknown>) => isCertainlyValidMessageEntry(value);
/** The schema's answer, for the same (message entries only: the fast path is about them). */
const schema = (value: Record<string, unknown>) =>
	value.type === "message" && KnownEntrySchema.safeParse(value).success;

describe("the fast validity check", () => {
	it("accepts exactly what the schema accepts, on lines that reach both answers", () => {
		let messages = 0;
		let accepted = 0;
		fc.assert(
			fc.property(entryLine, ({ line }) => {
				const value: unknown = JSON.parse(line);
				if (!isObject(value) || value.type !== "message") return;
				messages++;
				const ok = fast(value);
				if (ok) accepted++;
				expect(ok, line).toBe(schema(value));
			}),
			{ numRuns: RUNS },
		);
		// Most lines are message entries, and both answers are common.
		expect(messages).toBeGreaterThan(RUNS * 0.3);
		expect(accepted / messages).toBeGreaterThan(0.3);
		expect(accepted / messages).toBeLessThan(0.9);
	});

	it("refuses numbers JSON turns into Infinity, as the schema does", () => {
		const line =
			'{"type":"message","id":"b","parentId":null,"timestamp":"t","message":{"role":"bashExecution","command":"c","output":"o","exitCode":1e400}}';
		const value = JSON.parse(line) as Record<string, unknown>;
		expect(schema(value)).toBe(false);
		expect(fast(value)).toBe(false);
	});

	it("accepts the common shapes, so the fast path is taken", () => {
		const base = { type: "message", id: "a", parentId: null, timestamp: "t" };
		expect(fast({ ...base, message: { role: "user", content: "hi" } })).toBe(true);
		expect(
			fast({
				...base,
				message: {
					role: "toolResult",
					toolCallId: "c",
					toolName: "read",
					content: [{ type: "text", text: "x" }],
				},
			}),
		).toBe(true);
		expect(fast({ ...base, message: { role: "user", content: 5 } })).toBe(false);
	});
});

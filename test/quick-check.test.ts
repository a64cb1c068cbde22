/** The fast validity check never accepts what the zod schema rejects. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { logSchemas } from "../src/log/describe.js";
import { isCertainlyValidMessageEntry } from "../src/log/quick-check.js";

const KnownEntrySchema = logSchemas().KnownEntry;

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.anything(), fc.constant(undefined));
const block = fc.oneof(
	fc.record({
		type: maybe(fc.constantFrom("text", "image", "toolCall")),
		text: maybe(fc.string()),
	}),
	fc.anything(),
);
const message = fc.record(
	{
		role: maybe(
			fc.constantFrom("user", "assistant", "toolResult", "bashExecution", "custom", "other"),
		),
		content: maybe(fc.oneof(fc.string(), fc.array(block, { maxLength: 3 }))),
		toolCallId: maybe(fc.string()),
		toolName: maybe(fc.string()),
		command: maybe(fc.string()),
		output: maybe(fc.string()),
		exitCode: maybe(fc.oneof(fc.integer(), fc.constant(null))),
		cancelled: maybe(fc.boolean()),
		truncated: maybe(fc.boolean()),
		fullOutputPath: maybe(fc.string()),
		excludeFromContext: maybe(fc.boolean()),
		customType: maybe(fc.string()),
		display: maybe(fc.boolean()),
	},
	{ requiredKeys: [] },
);
const entry = fc.record(
	{
		type: maybe(fc.constant("message")),
		id: maybe(fc.string({ maxLength: 3 })),
		parentId: maybe(fc.oneof(fc.string(), fc.constant(null))),
		timestamp: maybe(fc.string()),
		message: maybe(message),
	},
	{ requiredKeys: [] },
);

describe("isCertainlyValidMessageEntry", () => {
	it("accepts only entries the schema accepts", () => {
		fc.assert(
			fc.property(entry, (value) => {
				const parsed = JSON.parse(JSON.stringify(value ?? null) ?? "null");
				if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return;
				if (isCertainlyValidMessageEntry(parsed))
					expect(KnownEntrySchema.safeParse(parsed).success).toBe(true);
			}),
			{ numRuns: RUNS * 10 },
		);
	});

	it("accepts the common shapes, so the fast path is taken", () => {
		const base = { type: "message", id: "a", parentId: null, timestamp: "t" };
		expect(
			isCertainlyValidMessageEntry({ ...base, message: { role: "user", content: "hi" } }),
		).toBe(true);
		expect(
			isCertainlyValidMessageEntry({
				...base,
				message: {
					role: "toolResult",
					toolCallId: "c",
					toolName: "read",
					content: [{ type: "text", text: "x" }],
				},
			}),
		).toBe(true);
		expect(isCertainlyValidMessageEntry({ ...base, message: { role: "user", content: 5 } })).toBe(
			false,
		);
	});
});

/**
 * A token policy decided by bounds: a result whose UTF-8 bytes do not pass
 * the threshold has no more tokens than that (a token covers at least one
 * byte), so the o200k table is consulted only for a result over the byte
 * bound. The decision is the exact one either way.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clearlyWhole, virtualize } from "../../src/render/virtualize.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import type { VirtualizePolicy } from "../../src/view/stub.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const { count } = loadTokenizerSync("o200k");

const policy = (threshold: number): VirtualizePolicy => ({
	threshold,
	unit: "tokens",
	countImages: false,
	imageSize: 0,
	keepImagesUpTo: 0,
	head: 10,
	tail: 5,
});

/** Texts of each kind the bounds tell apart, for a threshold `t`. */
const textFor = (t: number) =>
	fc.oneof(
		// Few enough characters that even three bytes each stay under.
		fc.string({ maxLength: Math.floor(t / 3) }),
		// ASCII under the byte bound but over the character one.
		fc.string({
			minLength: Math.floor(t / 3) + 1,
			maxLength: t,
			unit: fc.constantFrom("a", "b", " ", "\n"),
		}),
		// Over the byte bound, few tokens: one common word repeated.
		fc.integer({ min: Math.floor(t / 5) + 1, max: t }).map((n) => "the ".repeat(n)),
		// Over the byte bound, many tokens: emoji, a token or more each.
		fc
			.array(fc.constantFrom("🦀", "🧪", "🪐", "🫧"), { minLength: t + 1, maxLength: 2 * t + 2 })
			.map((a) => a.join("")),
	);

describe("the token policy's bounds", () => {
	it("decide as the exact count does, and count only between the bounds", () => {
		const reached = { byChars: 0, byBytes: 0, countedWhole: 0, countedStub: 0 };
		fc.assert(
			fc.property(
				fc.integer({ min: 3, max: 120 }).chain((t) => fc.tuple(fc.constant(t), textFor(t))),
				([t, text]) => {
					const result = { toolCallId: "c", toolName: "read", content: [{ type: "text", text }] };
					let counted = 0;
					const spy = (s: string) => {
						counted++;
						return count(s);
					};
					const stub = virtualize(result, "e", policy(t), spy);
					const exact = count(text) > t;
					expect(stub !== undefined).toBe(exact);
					const bytes = Buffer.byteLength(text, "utf8");
					expect(counted > 0).toBe(bytes > t);
					expect(clearlyWhole(result, policy(t))).toBe(bytes <= t);
					if (text.length * 3 <= t) reached.byChars++;
					else if (bytes <= t) reached.byBytes++;
					else if (exact) reached.countedStub++;
					else reached.countedWhole++;
				},
			),
			{ numRuns: RUNS },
		);
		// Each kind has a quarter of the runs: missing one in 300 is (3/4)^300.
		for (const [kind, n] of Object.entries(reached)) expect(n, kind).toBeGreaterThan(0);
	});
});

/**
 * The virtualization decision: only the result and the policy decide it, the
 * size filter that spares the tokenizer is sound, and the excerpts are
 * bounded pieces of the text.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clearlyWhole, excerpts, virtualize } from "../../src/render/virtualize.js";
import type { VirtualizePolicy } from "../../src/view/stub.js";

const require = createRequire(import.meta.url);
const { countTokens } = require("gpt-tokenizer/cjs/encoding/o200k_base") as {
	countTokens: (text: string) => number;
};
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

const policy = (over: Partial<VirtualizePolicy> = {}): VirtualizePolicy => ({
	threshold: 50,
	unit: "tokens",
	countImages: false,
	imageSize: 1000,
	keepImagesUpTo: 100,
	head: 40,
	tail: 20,
	...over,
});
const result = (content: unknown, isError = false) => ({
	toolCallId: "call-1",
	toolName: "read",
	content,
	isError,
});
/** Text that mixes ASCII, multi-byte letters, astral symbols and line breaks. */
const text = fc.string({
	unit: fc.oneof(
		fc.constantFrom("a", "b", " ", "\n", "é", "ж", "中", "😀", "\t", "{", "0"),
		fc.string({ unit: "grapheme", maxLength: 1 }),
	),
	maxLength: 400,
});

describe("virtualize", () => {
	it("never has more o200k tokens than UTF-8 bytes (the filter that spares the tokenizer is sound)", () => {
		fc.assert(
			fc.property(text, (t) => countTokens(t) <= Buffer.byteLength(t, "utf8")),
			{ numRuns: RUNS * 5 },
		);
	});

	it("decides by the token count exactly, calling the tokenizer only when bytes cannot decide", () => {
		let stubs = 0;
		fc.assert(
			fc.property(text, fc.integer({ min: 1, max: 200 }), (t, threshold) => {
				let calls = 0;
				const count = (s: string) => {
					calls++;
					return countTokens(s);
				};
				const v = virtualize(result(t), "e1", policy({ threshold }), count);
				expect(v !== undefined).toBe(countTokens(t) > threshold);
				if (Buffer.byteLength(t, "utf8") <= threshold) expect(calls).toBe(0);
				if (v !== undefined) {
					stubs++;
					expect(v.view.size).toBe(countTokens(t));
				}
			}),
			{ numRuns: RUNS * 5 },
		);
		// The generator must reach both outcomes.
		expect(stubs).toBeGreaterThan(0);
	});

	it("never calls a result clearly whole that virtualize would stub (blocks, images, both units)", () => {
		const counts = { clear: 0, stubbed: 0 };
		const block = fc.oneof(
			text.map((t) => ({ type: "text", text: t })),
			fc.nat(300).map((n) => ({ type: "image", data: "a".repeat(n), mimeType: "image/png" })),
			fc.constant({ type: "other" }),
		);
		fc.assert(
			fc.property(
				fc.oneof(text, fc.array(block, { maxLength: 4 })),
				fc.integer({ min: 1, max: 400 }),
				fc.constantFrom("tokens" as const, "chars" as const),
				fc.boolean(),
				(content, threshold, unit, countImages) => {
					const p = policy({ threshold, unit, countImages, imageSize: 60 });
					const stub = virtualize(result(content), "e1", p, countTokens);
					if (clearlyWhole(result(content), p)) {
						counts.clear++;
						expect(stub).toBe(undefined);
					}
					if (stub !== undefined) counts.stubbed++;
					// In chars mode the bound is the exact size: it decides alone.
					if (unit === "chars") expect(clearlyWhole(result(content), p)).toBe(stub === undefined);
				},
			),
			{ numRuns: RUNS * 5 },
		);
		expect(counts.clear).toBeGreaterThan(0);
		expect(counts.stubbed).toBeGreaterThan(0);
	});

	it("counts characters without a tokenizer in chars mode", () => {
		const never = () => {
			throw new Error("no tokenizer in chars mode");
		};
		expect(virtualize(result("x".repeat(50)), "e1", policy({ unit: "chars" }), never)).toBe(
			undefined,
		);
		const v = virtualize(result("x".repeat(51)), "e1", policy({ unit: "chars" }), never);
		expect(v?.view).toMatchObject({ size: 51, chars: 51, unit: "chars", entryId: "e1" });
	});

	it("depends on nothing but the result and the policy", () => {
		fc.assert(
			fc.property(text, (t) => {
				const a = virtualize(result(t), "e1", policy(), countTokens);
				const b = virtualize(structuredClone(result(t)), "e1", policy(), countTokens);
				expect(b).toEqual(a);
			}),
			{ numRuns: RUNS },
		);
	});

	it("says a failed result failed, and counts, keeps or leaves out images as the policy says", () => {
		const small = { type: "image", data: "a".repeat(100), mimeType: "image/png" };
		const big = { type: "image", data: "a".repeat(101), mimeType: "image/png" };
		const content = [{ type: "text", text: "line\n".repeat(100) }, small, big];
		const v = virtualize(result(content, true), "e9", policy(), countTokens);
		expect(v?.view).toMatchObject({ isError: true, imagesKept: 1, imagesOmitted: 1, lines: 100 });
		expect(v?.keptImages).toEqual([small]);
		// Images alone can push a result over the threshold, when they count.
		const pictures = [small, small];
		expect(virtualize(result(pictures), "e2", policy(), countTokens)).toBe(undefined);
		expect(
			virtualize(result(pictures), "e2", policy({ countImages: true }), countTokens)?.view.size,
		).toBe(2000);
	});

	it("cuts excerpts that are bounded, in order, never overlapping, never splitting a pair", () => {
		fc.assert(
			fc.property(text, fc.nat(60), fc.nat(60), (t, h, k) => {
				const { head, tail } = excerpts(t, h, k);
				if (t.length <= h + k) expect({ head, tail }).toEqual({ head: t, tail: "" });
				else {
					expect(head.length).toBeLessThanOrEqual(h);
					expect(tail.length).toBeLessThanOrEqual(k);
				}
				expect(t.startsWith(head)).toBe(true);
				expect(t.endsWith(tail)).toBe(true);
				expect(head.length + tail.length).toBeLessThanOrEqual(t.length);
				for (const piece of [head, tail]) {
					expect(piece).toBe(Buffer.from(piece, "utf8").toString("utf8"));
				}
			}),
			{ numRuns: RUNS * 5 },
		);
	});
});

/**
 * Counting long texts in pieces: the sum equals the whole count wherever the
 * text has breaks, and a run with no break is counted in bounded work.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countInPieces, loadTokenizerSync } from "../../src/text/tokenizer.js";

const require = createRequire(import.meta.url);
const { countTokens } = require("gpt-tokenizer/cjs/encoding/o200k_base") as {
	countTokens: (text: string) => number;
};
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

describe("counting in pieces", () => {
	it("equals the whole count on long texts of words, lines and punctuation", () => {
		const word = fc.constantFrom("the", "Ωμέγα", "x", "{", "});", "1234", "中文", "😀", "é");
		const gap = fc.constantFrom(" ", "\n", ", ", ". ", "  ", "\n\n", "\t");
		const text = fc
			.array(fc.tuple(word, gap), { minLength: 1500, maxLength: 4000 })
			.map((parts) => parts.map(([w, g]) => w + g).join(""));
		let long = 0;
		fc.assert(
			fc.property(text, (t) => {
				if (t.length > 4096) long++;
				expect(countInPieces(t, countTokens)).toBe(countTokens(t));
			}),
			{ numRuns: RUNS },
		);
		expect(long).toBeGreaterThan(0);
	});

	it("counts a run of one character without a break in pieces it bounds", () => {
		const pieces: number[] = [];
		const total = countInPieces("=".repeat(100_000), (piece) => {
			pieces.push(piece.length);
			return countTokens(piece);
		});
		expect(Math.max(...pieces)).toBeLessThanOrEqual(4096);
		expect(pieces.reduce((a, b) => a + b, 0)).toBe(100_000);
		expect(total).toBeGreaterThan(0);
		// The tokenizer the workbench uses goes through the same pieces.
		expect(loadTokenizerSync("o200k").count("=".repeat(100_000))).toBe(total);
	});
});

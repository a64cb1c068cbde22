/**
 * The cache of ASCII pieces' counts (src/text/bpe-cache.ts): a count is
 * found by the piece's characters, not its hash alone; when full it starts
 * over, and a piece it no longer holds is reported missing, never given
 * another's count. And the counter stays equal to gpt-tokenizer's past the
 * cache's bounds.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { bpeCounter } from "../../src/text/bpe.js";
import { AsciiCounts } from "../../src/text/bpe-cache.js";

const require = createRequire(import.meta.url);
const { countTokens } = require("gpt-tokenizer/cjs/encoding/o200k_base") as {
	countTokens: (text: string, options: { disallowedSpecial: Set<string> }) => number;
};

/** `n` distinct lowercase words of eight letters, from a fixed sequence. */
function words(n: number): string[] {
	const out: string[] = [];
	let x = 12345;
	for (let i = 0; i < n; i++) {
		let w = "";
		for (let k = 0; k < 8; k++) {
			x = (Math.imul(x, 1103515245) + 12345) >>> 0;
			w += String.fromCharCode(97 + ((x >>> 16) % 26));
		}
		out.push(w);
	}
	return [...new Set(out)];
}

describe("the cache of ASCII pieces' counts", () => {
	it("finds a count by the piece's characters, whatever the hash says", () => {
		const cache = new AsciiCounts();
		const text = "xyzzy plugh";
		cache.set(text, 0, 5, 42, 3);
		expect(cache.get(text, 0, 5, 42)).toBe(3);
		expect(cache.get(text, 6, 11, 42)).toBe(-1); // the same hash, other characters
		cache.set(text, 6, 11, 42, 2);
		expect(cache.get(text, 6, 11, 42)).toBe(2);
		expect(cache.get(text, 0, 5, 42)).toBe(3);
		expect(cache.get("xyzz", 0, 4, 42)).toBe(-1); // a prefix
	});

	it("starts over when full, and then misses what it held", () => {
		const cache = new AsciiCounts();
		const all = words(20_000);
		for (const [i, w] of all.entries()) cache.set(w, 0, w.length, i, i % 7);
		const last = all.length - 1;
		expect(cache.get(all[last] as string, 0, 8, last)).toBe(last % 7);
		expect(cache.get(all[0] as string, 0, 8, 0)).toBe(-1);
		let held = 0;
		for (const [i, w] of all.entries()) {
			const got = cache.get(w, 0, w.length, i);
			if (got !== -1) {
				held++;
				expect(got).toBe(i % 7);
			}
		}
		expect(held).toBeGreaterThan(0);
		expect(held).toBeLessThan(all.length);
	});

	it("leaves the counter equal to gpt-tokenizer's past its bounds", () => {
		const text = words(20_000).join(" ");
		const count = bpeCounter("o200k");
		const plain = { disallowedSpecial: new Set<string>() };
		expect(count(text)).toBe(countTokens(text, plain));
		expect(count(text)).toBe(countTokens(text, plain));
	});
});

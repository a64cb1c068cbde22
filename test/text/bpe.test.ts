/**
 * The byte-pair counter (src/text/bpe.ts) against `gpt-tokenizer`'s own
 * `countTokens`, special tokens as plain text: the same count on random
 * texts of every kind of character (ASCII classes, other scripts, marks,
 * Unicode spaces, lone surrogates, byte-order marks, special-token
 * strings) and on every fixture log; and o200k's ASCII scan cuts a text
 * where the expression cuts it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bpeCounter } from "../../src/text/bpe.js";
import { ABORT, o200kPieceEnd } from "../../src/text/pretokenize.js";

const require = createRequire(import.meta.url);
type Count = (text: string, options: { disallowedSpecial: Set<string> }) => number;
const reference = {
	o200k: (require("gpt-tokenizer/cjs/encoding/o200k_base") as { countTokens: Count }).countTokens,
	cl100k: (require("gpt-tokenizer/cjs/encoding/cl100k_base") as { countTokens: Count }).countTokens,
};
const { O200K_TOKEN_SPLIT_REGEX } = require("gpt-tokenizer/cjs/encodingParams/constants") as {
	O200K_TOKEN_SPLIT_REGEX: RegExp;
};
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const plain = { disallowedSpecial: new Set<string>() };

/** Pieces of every kind the pre-tokenizers and the merge treat apart. */
const piece = fc.constantFrom(
	..."aZsStlLvVeErRdDmM'0123456789",
	..." \t\n\r\v\f/{}.-_\x00\x1f\x7f",
	"  ",
	"\r\n",
	"é",
	"É",
	"ß",
	"中文",
	"Ωμέγα",
	"\u0301",
	"٣",
	"\u00a0",
	"\u2028",
	"\u3000",
	"😀",
	"\ud800",
	"\udc00",
	"\ufeff",
	"\ufffd",
	"using",
	"namespace",
	"<|endoftext|>",
	"출장안마",
	"HELLOworld",
	"don't",
	"=====",
);
const text = fc.array(piece, { minLength: 1, maxLength: 24 }).map((p) => p.join(""));

function fixtureTexts(dir: string): string[] {
	return readdirSync(dir, { recursive: true })
		.map(String)
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => readFileSync(join(dir, f), "utf8"));
}

describe("the byte-pair counter", () => {
	for (const name of ["o200k", "cl100k"] as const) {
		const count = bpeCounter(name);
		it(`counts ${name} as gpt-tokenizer does, on random texts`, () => {
			let ascii = 0;
			let other = 0;
			fc.assert(
				fc.property(text, (t) => {
					if ([...t].every((ch) => ch.charCodeAt(0) < 128)) ascii++;
					else other++;
					expect(count(t)).toBe(reference[name](t, plain));
				}),
				{ numRuns: RUNS },
			);
			expect(ascii).toBeGreaterThan(0);
			expect(other).toBeGreaterThan(0);
		});

		it(`counts ${name} as gpt-tokenizer does, on every fixture log`, () => {
			const texts = fixtureTexts(join(import.meta.dirname, "../fixtures"));
			expect(texts.length).toBeGreaterThan(10);
			for (const t of texts) expect(count(t)).toBe(reference[name](t, plain));
		});
	}

	it("looks a byte-order mark up as gpt-tokenizer does (a token that starts with one is never found)", () => {
		const count = bpeCounter("o200k");
		for (const t of ["\ufeffusing", "\ufeff#", "a\ufeff\n\n", "\ufeff\ufeff", "x\ufeffnamespace"])
			expect(count(t)).toBe(reference.o200k(t, plain));
	});
});

describe("o200k's ASCII scan", () => {
	/** The pieces of `t`: the scan where it decides, the expression where it gives up. */
	function pieces(t: string, stats: { aborts: number; scanned: number }): string[] {
		const sticky = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "uy");
		const out: string[] = [];
		for (let i = 0; i < t.length; ) {
			let end = t.charCodeAt(i) < 128 ? o200kPieceEnd(t, i) : ABORT;
			if (end === ABORT) {
				stats.aborts++;
				sticky.lastIndex = i;
				end = i + (sticky.exec(t) as RegExpExecArray)[0].length;
			} else stats.scanned++;
			out.push(t.slice(i, end));
			i = end;
		}
		return out;
	}

	it("cuts every text where the expression cuts it", () => {
		const stats = { aborts: 0, scanned: 0 };
		fc.assert(
			fc.property(text, (t) => {
				const expected = [...t.matchAll(O200K_TOKEN_SPLIT_REGEX)].map((m) => m[0]);
				expect(pieces(t, stats)).toEqual(expected);
			}),
			{ numRuns: RUNS * 5 },
		);
		expect(stats.scanned).toBeGreaterThan(0);
		expect(stats.aborts).toBeGreaterThan(0);
	});
});

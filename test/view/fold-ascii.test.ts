/**
 * The ASCII fast path of the reserved patterns: on an ASCII text, matching
 * the `fromAscii` pattern on the text only lower-cased finds exactly what
 * the folded pattern finds on the folded text, for tags and markers written
 * with every ASCII confusion the fold merges (case, `l`/`1`/`|` for `i`,
 * `0` for `o`, a backquote for a quote, `rn` for `m`) and any spacing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { fold, foldForMatch } from "../../src/view/fold.js";
import {
	type FoldedPattern,
	matchFolded,
	RESERVED_TAGS,
	reservedOf,
} from "../../src/view/reserved.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** The bundled set's markers, and one with a quote and digits, as a set may have. */
const MARKERS = [...TemplateRegistry.for().get().markers, "[It's 10 o'clock]"];
const reserved = reservedOf(MARKERS);
const PATTERNS: [string, FoldedPattern][] = [
	["tag", reserved.tag],
	["marker", reserved.marker as FoldedPattern],
];

/** One character of a name, as ASCII text may write it. */
const VARIANTS: Record<string, string[]> = {
	i: ["i", "I", "l", "L", "1", "|"],
	l: ["l", "L", "i", "I", "1", "|"],
	o: ["o", "O", "0"],
	m: ["m", "M", "rn", "rN"],
	"'": ["'", "`"],
	" ": [" ", "", "  ", "\t", "\n"],
};
const spelled = (name: string) =>
	fc
		.tuple(
			...[...name].map((c) =>
				fc.constantFrom(...(VARIANTS[c.toLowerCase()] ?? [c, c.toUpperCase()])),
			),
		)
		.map((parts) => parts.join(""));
const tag = fc
	.tuple(
		fc.constantFrom("<", "< ", "</", "< / ", "<//"),
		fc.constantFrom(...RESERVED_TAGS).chain(spelled),
		fc.constantFrom(">", "", "x", "_", "|", "1", " >", "\u0001"),
	)
	.map((parts) => parts.join(""));
const marker = fc.constantFrom(...MARKERS).chain(spelled);
const noise = fc.string({
	unit: fc.constantFrom(..."ab <>/\\|`'01lIL \n\t\u0001[]():".split("")),
	maxLength: 8,
});
const asciiText = fc
	.array(fc.oneof(tag, marker, noise), { maxLength: 6 })
	.map((parts) => parts.join(""));

const spans = (matches: Iterable<RegExpMatchArray>) =>
	[...matches].map((m) => [m.index, m[0].length]);

describe("reserved patterns on ASCII text", () => {
	it("the lower-cased text and the fromAscii patterns find what folding finds", () => {
		let found = 0;
		fc.assert(
			fc.property(asciiText, (text) => {
				const form = foldForMatch(text);
				expect(form.ascii).toBe(true);
				for (const [, pattern] of PATTERNS) {
					const fast = spans(matchFolded(form, pattern));
					expect(fast).toEqual(spans(fold(text).text.matchAll(pattern.folded)));
					found += fast.length;
				}
			}),
			{ numRuns: RUNS },
		);
		// The generator reaches the case: most texts hold a tag or marker that matches.
		expect(found).toBeGreaterThan(RUNS / 2);
	});

	it("a text beyond ASCII is folded", () => {
		expect(foldForMatch("<Ｈarness>").ascii).toBe(false);
		expect(foldForMatch("<Ｈarness>").text).toBe(fold("<Ｈarness>").text);
	});
});

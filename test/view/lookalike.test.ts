/**
 * Look-alikes, as properties: every reserved tag and framing marker, each
 * letter swapped for one of its Unicode confusables (UTS #39 data, read here
 * from the `unhomoglyph` package), its other case, its fullwidth or a
 * compatibility form, with zero-width characters slipped in, must never
 * survive as structure. What "reads as" a tag or marker is decided by an
 * oracle written independently of the code under test: the confusable data
 * applied to whole strings, NFKC and lower case, before and after.
 * `FUZZ_RUNS` sets the runs per property.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import unhomoglyph from "unhomoglyph";
import { describe, expect, it } from "vitest";
import { type ContextMessage, convertToLlm } from "../../src/index.js";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { RESERVED_TAGS, SECTIONS } from "../../src/view/reserved.js";
import { HEADER, load, metadata, writeLog } from "../support/session.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const MARKERS = TemplateRegistry.for().get().markers;
const skeleton = createRequire(import.meta.url)("unhomoglyph/data.json") as Record<string, string>;

// ── the oracle ──────────────────────────────────────────────────────────────

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{M}]/gu;
const compat = (t: string) => t.normalize("NFKC").replace(INVISIBLE, "").toLowerCase();
/**
 * The two ways a text reads: compatibility forms first (`［` is `[`), or the
 * confusable skeleton first (`Ϲ` is `C`, though it decomposes to `Σ`); in
 * both, invisibles and case count for nothing.
 */
function readings(text: string): string[] {
	const merge = (t: string) =>
		t
			.replace(/[l1|]/g, "i")
			.replace(/0/g, "o")
			.replace(/rn/g, "m")
			.replace(/[⟨〈❬❮❰⧼]/g, "<");
	return [
		merge(compat(unhomoglyph(compat(text)))),
		merge(compat(unhomoglyph(compat(unhomoglyph(text))))),
	];
}
const reads = (text: string) => readings(text)[0] ?? "";
const words = (name: string) =>
	(reads(name).match(/[a-z0-9]+|\S/g) ?? [])
		.map((w) => w.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&").replace(/f|s/g, "[fs]"))
		.join("\\s*");
const TAG = new RegExp(`<\\s*(?:/[\\s/]*)?(?:${RESERVED_TAGS.map(words).join("|")})(?![a-z])`, "g");
const MARKER = new RegExp(MARKERS.map(words).join("|"), "g");
/**
 * Tags and markers as the oracle reads them, the most of either reading; a
 * marker right after a backslash is escaped.
 */
function structure(text: string): { tags: number; markers: number } {
	const counts = readings(text).map((r) => ({
		tags: [...r.matchAll(TAG)].length,
		markers: [...r.matchAll(MARKER)].filter((m) => r[m.index - 1] !== "\\").length,
	}));
	return {
		tags: Math.max(...counts.map((c) => c.tags)),
		markers: Math.max(...counts.map((c) => c.markers)),
	};
}

// ── look-alike generators ───────────────────────────────────────────────────

/** Every single code point the confusable data reads as each target. */
const confusables = new Map<string, string[]>();
for (const [from, to] of Object.entries(skeleton)) {
	if ([...from].length === 1) confusables.set(to, [...(confusables.get(to) ?? []), from]);
}
const compatibility = new Map<string, string[]>();
for (let cp = 0x80; cp < 0x20000; cp++) {
	const c = String.fromCodePoint(cp);
	const n = c.normalize("NFKC");
	if (n.length === 1 && n !== c && n.charCodeAt(0) < 0x80) {
		compatibility.set(n, [...(compatibility.get(n) ?? []), c]);
	}
}
const known = new Map<string, string[]>();
/** Ways to write one character of a reserved name or marker. */
function variants(char: string): string[] {
	let forms = known.get(char);
	if (forms === undefined) {
		const all = new Set([char, char.toUpperCase(), char.toLowerCase()]);
		for (const c of [...all]) {
			for (const v of [...(confusables.get(c) ?? []), ...(compatibility.get(c) ?? [])]) all.add(v);
		}
		if (char === " ") for (const v of ["\u00a0", "\u2003", "\u3000", "\u200b", "  "]) all.add(v);
		forms = [...all];
		known.set(char, forms);
	}
	return forms;
}
const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u034f", "\ufe0f"];

/** `text` with each character written some other way, and invisibles slipped in. */
const lookalike = (text: string): fc.Arbitrary<string> =>
	fc
		.tuple(
			...[...text].map((c) =>
				fc.tuple(
					fc.oneof({ weight: 2, arbitrary: fc.constant(c) }, fc.constantFrom(...variants(c))),
					fc.oneof({ weight: 4, arbitrary: fc.constant("") }, fc.constantFrom(...ZERO_WIDTH)),
				),
			),
		)
		.map((parts) => parts.map(([c, z]) => c + z).join(""));

const forgedTag = (names: readonly string[]) =>
	fc
		.tuple(fc.constantFrom(...names), fc.boolean())
		.chain(([name, close]) => lookalike(`<${close ? "/" : ""}${name}>`));
const forgedMarker = fc.constantFrom(...MARKERS).chain(lookalike);
const around = (inner: fc.Arbitrary<string>) =>
	fc.tuple(fc.string({ maxLength: 5 }), inner, fc.string({ maxLength: 5 })).map((p) => p.join(""));

// ── properties ──────────────────────────────────────────────────────────────

describe("look-alikes never survive as structure", () => {
	const forged = around(fc.oneof(forgedTag(RESERVED_TAGS), forgedMarker));

	it("the generators reach look-alikes the oracle reads as the real thing", () => {
		const samples = fc.sample(fc.oneof(forgedTag(SECTIONS), forgedMarker), 200);
		const exotic = samples.filter((s) => /[^\x20-\x7e]/.test(s));
		expect(exotic.length).toBeGreaterThan(100);
		const read = exotic.filter((s) => structure(s).tags + structure(s).markers > 0);
		expect(read.length).toBeGreaterThan(exotic.length * 0.8);
	});

	it("in the system prompt: only its own tags read as tags", () => {
		const plain = load(
			writeLog([HEADER, metadata("m", null, { memory: "m", collapseNodeId: "n" })]),
		).systemPrompt;
		const expected = structure(plain);
		fc.assert(
			fc.property(forged, forged, forged, fc.array(forged, { maxLength: 3 }), (a, b, c, tools) => {
				const { systemPrompt } = load(
					writeLog([
						HEADER,
						metadata("m", null, {
							memory: a,
							harnessIntroduction: b,
							cwd: c,
							tools,
							collapseNodeId: c,
							sourceSessionId: a,
						}),
					]),
				);
				expect(structure(systemPrompt)).toEqual(expected);
			}),
			{ numRuns: RUNS },
		);
	});

	it("in framed and unframed messages: only the framing's own marker and tags", () => {
		const texts = (summary: string, text: string, command: string) =>
			convertToLlm([
				{ role: "compactionSummary", summary, timestamp: 1 },
				{ role: "branchSummary", summary, timestamp: 1 },
				{ role: "custom", customType: "x", content: text, display: true, timestamp: 1 },
				{ role: "bashExecution", command, output: text, exitCode: 0, timestamp: 1 },
			] as ContextMessage[]).map((m) => ((m.content ?? []) as { text: string }[])[0]?.text ?? "");
		const own = texts("s", "t", "c").map(structure);
		expect(own.map((o) => o.markers)).toEqual([1, 1, 0, 0]);
		fc.assert(
			fc.property(forged, forged, (text, command) => {
				expect(texts(text, text, command).map(structure)).toEqual(own);
			}),
			{ numRuns: RUNS },
		);
	});
});

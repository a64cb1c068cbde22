/**
 * The prefix rule: a call's cached tokens are the prefix its context shares
 * with the previous call's (the system prompt while it is unchanged, then the
 * messages equal from the start). A linear session caches everything but the
 * last turn; a compaction breaks the cache once; an edit of the harness
 * template breaks it at the first call only.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { measureLoaded, measuringService } from "../../src/measure/session.js";
import { Prices } from "../../src/replay/prices.js";
import { Replayer, type ReplaySide, type SessionReplay } from "../../src/replay/replay.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { assistant, entry, HEADER, user, writeLog } from "../support/session.js";
import { editLastLine, templateSet } from "../support/template-sets.js";

const tokenizer = loadTokenizerSync("o200k");
const NO_PRICES = new Prices();

function replay(file: string, side: ReplaySide, vs?: ReplaySide): SessionReplay {
	const sides = vs === undefined ? { side } : { side, vs };
	const result = new Replayer(sides, tokenizer, NO_PRICES, { compiler: compileTemplateSet }).replay(
		file,
	);
	expect(result.error).toBeUndefined();
	return result;
}

const BUNDLED = { templates: join(import.meta.dirname, "../../templates") };

/** u1 a1 u2 a2 … : a linear session of `turns` calls. */
function linear(turns: number): string {
	const lines: unknown[] = [HEADER];
	let parent: string | null = null;
	for (let t = 1; t <= turns; t++) {
		lines.push(user(`u${t}`, parent, `question ${t}: ${"why ".repeat(t * 7)}`));
		lines.push(assistant(`a${t}`, `u${t}`, `answer ${t}: ${"because ".repeat(t * 5)}`));
		parent = `a${t}`;
	}
	return writeLog(lines, "linear");
}

describe("the prefix rule", () => {
	it("a linear session caches everything but the last turn", () => {
		const r = replay(linear(6), BUNDLED);
		expect(r.calls).toHaveLength(6);
		expect(r.calls[0]?.cachedTokens).toBe(0);
		for (let k = 1; k < r.calls.length; k++) {
			const call = r.calls[k];
			const before = r.calls[k - 1];
			expect(call?.cachedTokens).toBe(before?.contextTokens);
			expect(call?.newTokens).toBe((call?.contextTokens ?? 0) - (before?.contextTokens ?? 0));
			expect(call?.newTokens).toBeGreaterThan(0);
		}
		expect(r.total.cachedTokens + r.total.newTokens).toBe(r.total.contextTokens);
	});

	it("a compaction breaks the cache once, down to the system prompt", () => {
		const file = writeLog(
			[
				HEADER,
				user("u1", null, "first question"),
				assistant("a1", "u1", "first answer"),
				user("u2", "a1", "second question"),
				assistant("a2", "u2", "second answer"),
				entry("k1", "a2", {
					type: "compaction",
					summary: "What happened so far.",
					firstKeptEntryId: "u2",
					tokensBefore: 100,
				}),
				user("u3", "k1", "third question"),
				assistant("a3", "u3", "third answer"),
				user("u4", "a3", "fourth question"),
				assistant("a4", "u4", "fourth answer"),
			],
			"compacted",
		);
		const r = replay(file, BUNDLED);
		const system = measureLoaded(measuringService(), file, tokenizer).size.systemPrompt.tokens;
		const [c1, c2, c3, c4] = r.calls;
		expect(c2?.cachedTokens).toBe(c1?.contextTokens);
		expect(c3?.cachedTokens).toBe(system);
		expect(c3?.newTokens).toBe((c3?.contextTokens ?? 0) - system);
		expect(c4?.cachedTokens).toBe(c3?.contextTokens);
	});

	it("an edit of the harness breaks the cache at the first call only", () => {
		const base = { templates: templateSet() };
		const edited = {
			templates: templateSet({
				"harness.hbs": (text) => editLastLine(text, " Always answer in full sentences, please."),
			}),
		};
		const r = replay(linear(5), base, edited);
		const vs = r.vs?.calls ?? [];
		expect(vs).toHaveLength(r.calls.length);
		const delta = (vs[0]?.contextTokens ?? 0) - (r.calls[0]?.contextTokens ?? 0);
		expect(delta).toBeGreaterThan(0);
		expect(vs[0]?.newTokens).toBe((r.calls[0]?.newTokens ?? 0) + delta);
		for (let k = 1; k < vs.length; k++) {
			expect(vs[k]?.contextTokens).toBe((r.calls[k]?.contextTokens ?? 0) + delta);
			expect(vs[k]?.cachedTokens).toBe((r.calls[k]?.cachedTokens ?? 0) + delta);
			expect(vs[k]?.newTokens).toBe(r.calls[k]?.newTokens);
		}
		expect(r.vs?.change.newTokens).toBe(delta);
		expect(r.vs?.change.cachedTokens).toBe(delta * (vs.length - 1));
	});
});

describe("replay of other agents' sessions", () => {
	it("reads a Claude Code and a Codex file directly, as every command does", () => {
		const dir = join(import.meta.dirname, "../fixtures/import");
		for (const name of ["cc-parallel-calls.jsonl", "codex-tools.jsonl"]) {
			const result = replay(join(dir, name), BUNDLED);
			expect(result.calls.length, name).toBeGreaterThan(0);
			expect(result.calls.every((c) => c.contextTokens > 0)).toBe(true);
		}
	});
});

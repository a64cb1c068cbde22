/**
 * Tokens in the model's own units: `replay --calibrate` fits a family's
 * factor on recorded usage and writes a table that `--tokenizer FILE`
 * reads; with it the fit's ratio comes to 1 and every figure names its
 * unit. Codex's hidden reasoning counts at its recorded size. Sessions and
 * tables of the test's own.
 */
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Units } from "../../src/measure/units.js";
import { calibrate, quantile } from "../../src/replay/calibrate.js";
import { CallCounter } from "../../src/replay/count.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { runCli } from "../support/cli.js";
import { entry, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const dir = tempDir("theway-units-");

const o200k = loadTokenizerSync("o200k");
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];

/** A session of `model` whose recorded prompt grows `bias` times as fast as its o200k context. */
function biasedSession(model: string, bias: number, calls = 12): string {
	const lines: unknown[] = [{ ...HEADER, provider: "acme" }];
	let parent: string | null = null;
	let context = 0;
	for (let i = 0; i < calls; i++) {
		const question = `${WORDS.slice(0, 1 + (i % WORDS.length)).join(" ")} question ${i}?`.repeat(
			1 + i,
		);
		lines.push(user(`u${i}`, parent, question));
		context += o200k.count(question);
		const answer = `answer ${i}: ${WORDS.slice(i % 4).join(", ")}.`;
		lines.push(
			entry(`a${i}`, `u${i}`, {
				type: "message",
				message: {
					role: "assistant",
					content: [{ type: "text", text: answer }],
					provider: "acme",
					model,
					usage: {
						input: 4000 + Math.round(bias * context),
						output: 5,
						cacheRead: 0,
						cacheWrite: 0,
					},
					stopReason: "stop",
					timestamp: 2,
				},
			}),
		);
		context += o200k.count(answer);
		parent = `a${i}`;
	}
	return writeLog(lines, model);
}

const TABLE = {
	about: "the test's own families",
	families: [
		{ family: "gpt", match: ["gpt-*"], encoding: "o200k" },
		{ family: "acme", match: ["acme-*"], encoding: "o200k", factor: 1 },
	],
};

describe("replay --calibrate and --tokenizer FILE", () => {
	it("fits a family's factor to the recorded growth and, with the table, the ratio comes to 1", async () => {
		const session = biasedSession("acme-large", 1.5);
		const table = join(dir, "table.json");
		writeFileSync(table, JSON.stringify(TABLE));
		const fitted = join(dir, "fitted.json");
		const cal = await runCli(["replay", session, "--tokenizer", table, "--calibrate", fitted]);
		expect(cal.code, cal.stderr).toBe(0);
		expect(cal.stdout).toMatch(/^acme\s+11\s+1\.5\d*\s+1\.5\d*\s+1\.000$/m);
		const written = JSON.parse(readFileSync(fitted, "utf8"));
		const acme = written.families.find((f: { family: string }) => f.family === "acme");
		expect(acme.factor).toBeCloseTo(1.5, 2);
		expect(acme.fit).toMatchObject({ pairs: 11, sessions: [{ pairs: 11 }] });
		expect(acme.fit.spread[0]).toBeLessThanOrEqual(1);
		expect(acme.fit.spread[1]).toBeGreaterThanOrEqual(1);
		// The exact family has no pairs here and stays as it was.
		expect(written.families[0]).toEqual(TABLE.families[0]);

		const before = JSON.parse(
			(await runCli(["replay", session, "--tokenizer", table, "--format", "json"])).stdout,
		);
		const after = JSON.parse(
			(await runCli(["replay", session, "--tokenizer", fitted, "--format", "json"])).stdout,
		);
		expect(before.summary.recordedFit.acme.ratio).toBeCloseTo(1.5, 1);
		expect(Math.abs(after.summary.recordedFit.acme.ratio - 1)).toBeLessThan(0.02);
		expect(after.sessions[0].calls[0].unit).toBe("acme~");
		expect(Object.keys(after.summary.units)).toEqual(["acme~"]);
		expect(after.summary.units["acme~"]).toMatch(/estimated: o200k × 1\.5\d* \(fitted on 11 pairs/);
		expect(after.summary.contextTokens).toBeGreaterThan(before.summary.contextTokens * 1.4);
	});

	it("names the unit in every text figure and refuses --calibrate with a fixed encoding", async () => {
		const session = biasedSession("gpt-test", 1);
		const table = join(dir, "table-2.json");
		writeFileSync(table, JSON.stringify(TABLE));
		const text = await runCli(["replay", session, "--tokenizer", table]);
		expect(text.stdout).toMatch(/context [\d,]+ o200k tokens: cached/);
		expect(text.stdout).toMatch(/^o200k: o200k_base \(gpt's own, exact\)$/m);
		const refused = await runCli(["replay", session, "--tokenizer", "o200k", "--calibrate", "x"]);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toMatch(/--calibrate fits a table/);
		// A table it could not write is said before any session is replayed.
		const nowhere = join(dir, "no-such-folder", "table.json");
		const unwritable = await runCli(["replay", session, "--calibrate", nowhere]);
		expect(unwritable.code).toBe(1);
		expect(unwritable.stderr).toMatch(/cannot write the tokenizer table \(.*no such file\)/);
		expect(unwritable.stdout).toBe("");
		// Nor over a session log it reads, named or through a link.
		const before = readFileSync(session, "utf8");
		const link = join(tempDir(), "link.jsonl");
		symlinkSync(session, link);
		for (const target of [session, link]) {
			const over = await runCli(["replay", session, "--calibrate", target]);
			expect(over.code).toBe(2);
			expect(over.stderr).toMatch(/--calibrate .* would write over the session log/);
		}
		expect(readFileSync(session, "utf8")).toBe(before);
	});

	it("reports a bad table at its file, line and column", async () => {
		const table = join(dir, "bad.json");
		writeFileSync(
			table,
			'{\n  "families": [\n    { "family": "x", "match": [], "encoding": "o200k" }\n  ]\n}\n',
		);
		const result = await runCli(["inspect", biasedSession("acme-x", 1, 2), "--tokenizer", table]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`${table}:3:`);
		// A .json table that is no JSON: one error, in JSON's words, where it is cut.
		const torn = join(dir, "torn.json");
		writeFileSync(torn, '{"families": [\n  {"family": "x",');
		const cut = await runCli(["replay", biasedSession("acme-x", 1, 2), "--tokenizer", torn]);
		expect(cut.code).toBe(1);
		expect(cut.stderr.trim().split("\n")).toHaveLength(1);
		expect(cut.stderr).toMatch(new RegExp(`${torn}:2:\\d+: error: not valid JSON: the file ends`));
		// A factor no tokenizer has (counts times it would not even be finite): refused where it is.
		const huge = join(dir, "huge.json");
		const family = { family: "x", match: ["acme-*"], encoding: "o200k", factor: 1e308 };
		writeFileSync(huge, JSON.stringify({ families: [family] }, null, 2));
		const refused = await runCli(["replay", biasedSession("acme-x", 1, 2), "--tokenizer", huge]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(new RegExp(`${huge}:\\d+:\\d+: error: .*factor.*at most`));
	});
});

describe("units per model", () => {
	it("counts a family's estimate as its encoding times the factor, an unknown model in o200k as an estimate", () => {
		const units = new Units({
			table: { ...TABLE, file: "t", families: [{ ...TABLE.families[1], factor: 2 } as never] },
		});
		const text = "The quick brown fox jumps over the lazy dog.";
		expect(units.forModel("acme-9").count(text)).toBe(2 * o200k.count(text));
		expect(units.forModel("acme-9")).toMatchObject({ name: "acme~", exact: false });
		expect(units.forModel("other")).toMatchObject({ name: "o200k", exact: false });
		expect(units.forModel(null).count(text)).toBe(o200k.count(text));
	});

	it("counts a message's hidden reasoning at its recorded size instead of its summary", () => {
		const message = (usage: Record<string, number>) => ({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "A short summary of much longer reasoning." },
				{ type: "text", text: "done" },
			],
			usage,
		});
		const counted = (m: unknown) => {
			const counter = new CallCounter({} as never, o200k);
			return (counter as unknown as { message(llm: unknown): number }).message(m);
		};
		const plain = counted(message({ output: 900 }));
		expect(plain).toBe(o200k.count("A short summary of much longer reasoning.\ndone"));
		expect(counted(message({ output: 900, reasoning: 850 }))).toBe(850 + o200k.count("done"));
	});

	it("keeps, for a family it does not fit anew, the factor and the fit that factor came from", () => {
		const fit = { pairs: 40, ratio: 1.3, spread: [0.9, 1.1] as [number, number], sessions: [] };
		const table = {
			file: "t.json",
			families: [
				{ family: "est", match: ["est-*"], encoding: "o200k" as const, factor: 1.3, fit },
				{ family: "own", match: ["own-*"], encoding: "o200k" as const, fit },
			],
		};
		const { table: out } = calibrate([], table, "2026-01-01");
		expect(out.families).toEqual(table.families);
	});

	it("takes quantiles between the nearest values", () => {
		expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
		expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
		expect(quantile([], 0.5)).toBeNull();
	});
});

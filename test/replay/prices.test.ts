/**
 * Prices: an override table's globs and providers (the first entry that
 * fits wins, an entry a glob before it hides is warned of), a bad table
 * located at its line and column; the bundled database's rates, dated and
 * tiered, checked after the table; an unknown model named once on stderr
 * with its calls' cost null.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { globCovers } from "../../src/replay/globs.js";
import {
	costAt,
	globMatches,
	type Price,
	Prices,
	parsePrices,
	priceOf,
	type TokenUsage,
} from "../../src/replay/prices.js";
import { runCli } from "../support/cli.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const TABLE = `models:
  - match: "claude-opus-4-5*"
    provider: anthropic
    input: 5
    cacheWrite: 6.25
    cacheRead: 0.5
    output: 25
  - match: "claude-*"
    input: 3
    output: 15
  - match: "gpt-?o"
    input: 2
    cacheRead: 1
    output: 8
`;

describe("override tables", () => {
	const table = parsePrices(TABLE, "prices.yaml");

	it("matches globs, case ignored, the first fitting entry winning", () => {
		expect(globMatches("claude-*", "Claude-Sonnet-4")).toBe(true);
		expect(globMatches("gpt-?o", "gpt-4o")).toBe(true);
		expect(globMatches("gpt-?o", "gpt-40o")).toBe(false);
		expect(globMatches("a.b", "axb")).toBe(false);
		expect(priceOf(table, "claude-opus-4-5-20251101", "anthropic")?.input).toBe(5);
		// The provider does not fit the first entry: the second one wins.
		expect(priceOf(table, "claude-opus-4-5-20251101", "bedrock")?.input).toBe(3);
		expect(priceOf(table, "llama3", "ollama")).toBeUndefined();
		expect(table.warnings).toEqual([]);
	});

	it("bills each kind of token at its rate, a missing cache rate at input's", () => {
		const opus = priceOf(table, "claude-opus-4-5", "anthropic") as Price;
		const usage = {
			input: 1_000_000,
			cacheRead: 1_000_000,
			cacheWrite: 1_000_000,
			output: 1_000_000,
		};
		expect(costAt(opus, usage)).toBeCloseTo(5 + 0.5 + 6.25 + 25);
		const plain = priceOf(table, "claude-haiku", undefined) as Price;
		expect(costAt(plain, usage)).toBeCloseTo(3 + 3 + 3 + 15);
	});

	it("warns of an entry a glob before it hides, naming the entries it hides", () => {
		const shadowing = `models:\n  - match: "gpt-*"\n    input: 1\n    output: 1\n  - match: "gpt-5*"\n    input: 2\n    output: 2\n  - match: "GPT-4?"\n    provider: openai\n    input: 3\n    output: 3\n  - match: "claude-*"\n    provider: anthropic\n    input: 4\n    output: 4\n  - match: "claude-opus-*"\n    input: 5\n    output: 5\n`;
		const warned = parsePrices(shadowing, "shadow.yaml").warnings;
		expect(warned.map((w) => [w.code, w.file, w.line])).toEqual([
			["shadowed_price", "shadow.yaml", 2],
		]);
		expect(warned[0]?.message).toContain('"gpt-5*" (line 5), "GPT-4?" (line 8)');
		// A provider-bound glob does not hide an entry for any provider.
		expect(globCovers("claude-*", "claude-opus-*")).toBe(true);
		expect(globCovers("gpt-?", "gpt-*")).toBe(false);
		expect(globCovers("*", "?")).toBe(true);
		expect(globCovers("a?c", "a*c")).toBe(false);
	});

	it("locates a bad table at the line and column of the bad value", () => {
		const bad = `models:\n  - match: "x*"\n    input: -1\n    output: 2\n`;
		try {
			parsePrices(bad, "bad.yaml");
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(ContextError);
			const e = error as ContextError;
			expect(e.code).toBe("bad_prices");
			expect([e.file, e.line, e.column]).toEqual(["bad.yaml", 3, 12]);
		}
		expect(() =>
			parsePrices("models:\n  - match: x\n    inputs: 1\n    output: 1\n", "t.yaml"),
		).toThrow(/t\.yaml|inputs/);
		expect(() => parsePrices("models: [\n", "broken.yaml")).toThrow(ContextError);
	});
});

describe("the bundled price database", () => {
	const prices = new Prices();
	const million = (k: keyof TokenUsage) => ({
		input: 0,
		cacheRead: 0,
		cacheWrite: 0,
		output: 0,
		[k]: 1_000_000,
	});
	const cost = (
		provider: string | undefined,
		model: string,
		usage: TokenUsage,
		date: string | number = "2026-06-01",
	) => prices.costOf({ provider, model, usage, date });

	it("prices current models at their published rates", () => {
		// Opus 4.5 and later at $5 / $25, cache write $6.25, read $0.50.
		expect(cost("anthropic", "claude-opus-4-7", million("input"))).toBeCloseTo(5);
		expect(cost("anthropic", "claude-opus-4-7", million("output"))).toBeCloseTo(25);
		expect(cost("anthropic", "claude-opus-4-5-20251101", million("cacheWrite"))).toBeCloseTo(6.25);
		expect(cost("anthropic", "claude-opus-4-5-20251101", million("cacheRead"))).toBeCloseTo(0.5);
		expect(cost("openai", "gpt-5.2-codex", million("input"))).toBeCloseTo(1.75);
		expect(cost("openai", "gpt-5.2-codex", million("output"))).toBeCloseTo(14);
		// A provider the database names otherwise (pi's amazon-bedrock), and one it does not know: the model decides.
		expect(
			cost("amazon-bedrock", "global.anthropic.claude-opus-4-6-v1", million("input")),
		).toBeCloseTo(5);
		expect(cost("some-gateway", "claude-opus-4-7", million("input"))).toBeCloseTo(5);
	});

	it("prices a call at the price in force on its date, tiers included", () => {
		// Opus 4.6 billed input past 200k tokens at $10 until 2026-03-13, at $5 flat since.
		const long = { input: 300_000, cacheRead: 0, cacheWrite: 0, output: 0 };
		expect(cost("anthropic", "claude-opus-4-6", long, "2026-03-01T12:00:00Z")).toBeCloseTo(3);
		expect(cost("anthropic", "claude-opus-4-6", long, "2026-04-01T12:00:00Z")).toBeCloseTo(1.5);
		expect(cost("anthropic", "claude-opus-4-6", long, Date.parse("2026-04-01"))).toBeCloseTo(1.5);
	});

	it("knows no price for a model it does not know, nor for a date that is none", () => {
		expect(cost("anthropic", "<synthetic>", million("input"))).toBeUndefined();
		expect(cost("openclaw", "delivery-mirror", million("input"))).toBeUndefined();
		expect(cost("anthropic", "claude-opus-4-7", million("input"), "not a date")).toBeUndefined();
		expect(prices.knows("openai", "gpt-5", "2026-01-01")).toBe(true);
	});

	it("checks the override table first", () => {
		const table = parsePrices(
			`models:\n  - match: "claude-opus-4-7"\n    input: 1\n    output: 1\n`,
			"o.yaml",
		);
		const overridden = new Prices(table);
		expect(
			overridden.costOf({
				provider: "anthropic",
				model: "claude-opus-4-7",
				usage: million("input"),
				date: 0,
			}),
		).toBeCloseTo(1);
		expect(
			overridden.costOf({ provider: "openai", model: "gpt-5", usage: million("input"), date: 0 }),
		).toBeCloseTo(1.25);
	});
});

describe("replay's costs", () => {
	const log = () =>
		writeLog([
			HEADER,
			user("u1", null, "hello"),
			{ ...assistant("a1", "u1", "hi"), message: answer("unheard-of-model", 7) },
			user("u2", "a1", "again"),
			{ ...assistant("a2", "u2", "hi again"), message: answer("unheard-of-model", 5) },
		]);
	const answer = (model: string, output: number) => ({
		role: "assistant",
		content: [{ type: "text", text: "an answer" }],
		provider: "acme",
		model,
		usage: { input: 10, cacheRead: 0, cacheWrite: 0, output },
		stopReason: "stop",
		timestamp: 2,
	});

	it("names an unknown model once on stderr; its calls' cost is null, never zero", async () => {
		const result = await runCli(["replay", log(), "--format", "json"]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr.match(/unheard-of-model/g)).toHaveLength(1);
		const json = JSON.parse(result.stdout);
		const session = json.sessions[0];
		expect(session.calls.map((c: { cost: unknown }) => c.cost)).toEqual([null, null]);
		expect(session.total.cost).toBeNull();
		expect(session.calls[1].outputTokens).toBe(5);
	});

	it("prices the calls with --prices", async () => {
		const dir = tempDir();
		const file = join(dir, "prices.yaml");
		writeFileSync(file, `models:\n  - match: "unheard-*"\n    input: 1\n    output: 2\n`);
		const result = await runCli(["replay", log(), "--format", "json", "--prices", file]);
		expect(result.stderr).not.toMatch(/unheard-of-model/);
		const calls = JSON.parse(result.stdout).sessions[0].calls;
		for (const c of calls) {
			expect(c.cost).toBeCloseTo((c.contextTokens * 1 + c.outputTokens * 2) / 1e6, 10);
		}
	});

	it("warns of each --prices entry that priced no call, at its line; one that did is not named", async () => {
		const dir = tempDir();
		const file = join(dir, "prices.yaml");
		const entry = (match: string, provider?: string) =>
			`  - match: "${match}"\n${provider === undefined ? "" : `    provider: ${provider}\n`}    input: 1\n    output: 2\n`;
		writeFileSync(
			file,
			`models:\n${entry("unheard-*", "other")}${entry("unheard-of-*")}${entry("unheard-of-model")}${entry("gpt-9")}`,
		);
		const result = await runCli(["replay", log(), "--format", "json", "--prices", file]);
		expect(result.code, result.stderr).toBe(0);
		const warned = result.stderr.split("\n").filter((l) => l.includes("priced no call"));
		expect(warned.map((l) => l.match(/prices\.yaml:(\d+):/)?.[1])).toEqual(["2", "12"]);
		// The one line 6's glob hides is said as hidden, not again as unused.
		expect(result.stderr).toMatch(/prices\.yaml:6:.*"unheard-of-model" \(line 9\)/);
		expect(warned.join("\n")).not.toContain('"unheard-of-*"');
		// One a glob before it hides is said once, as hidden.
		writeFileSync(file, `models:\n${entry("unheard-*")}${entry("unheard-of-model")}`);
		const hidden = await runCli(["replay", log(), "--format", "json", "--prices", file]);
		expect(hidden.stderr.match(/unheard-of-model/g)).toHaveLength(1);
		expect(hidden.stderr).not.toContain("priced no call");
		const quiet = await runCli(["replay", log(), "--quiet", "--prices", file]);
		expect(quiet.stderr).toBe("");
		// Without a session replayed, nothing was priced and nothing is said of the entries.
		const failed = await runCli(["replay", join(dir, "none.jsonl"), "--prices", file]);
		expect(failed.stderr).not.toContain("priced no call");
	});

	it("refuses a bad --prices file, located", async () => {
		const dir = tempDir();
		const file = join(dir, "prices.yaml");
		writeFileSync(file, "models:\n  - match: x\n    output: 1\n");
		const result = await runCli(["replay", log(), "--prices", file]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`${file}:2:`);
		const missing = join(dir, "no-prices.yaml");
		const none = await runCli(["replay", log(), "--prices", missing]);
		expect(none.code).toBe(2);
		expect(none.stderr).toMatch(
			new RegExp(`^theway-context: error: --prices ${missing}: no such file or folder\n`),
		);
	});

	const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
	it.skipIf(!hasMkfifo)("refuses a --prices FIFO or folder at once, located", async () => {
		const dir = tempDir();
		const fifo = join(dir, "prices.fifo");
		spawnSync("mkfifo", [fifo]);
		// No writer ever opens the FIFO: a read would wait for one until the test timed out.
		const result = await runCli(["replay", log(), "--prices", fifo]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			`theway-context: ${fifo}: error: cannot read the price table (it is a FIFO, not a regular file)\n`,
		);
		const folder = await runCli(["replay", log(), "--prices", dir]);
		expect(folder.code).toBe(1);
		expect(folder.stderr).toContain(
			`${dir}: error: cannot read the price table (it is a directory,`,
		);
	});
});

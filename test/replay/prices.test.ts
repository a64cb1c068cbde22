/**
 * Prices: the table's globs and providers (the first entry that fits wins),
 * the cost rule, a bad table located at its line and column, the shipped
 * table valid, and an unknown model named once on stderr with its calls'
 * cost null.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { costOf, globMatches, parsePrices, priceOf, readPrices } from "../../src/replay/prices.js";
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

describe("price tables", () => {
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
	});

	it("bills new tokens at the write rate, the cached prefix at the read rate, else at input", () => {
		const opus = priceOf(table, "claude-opus-4-5", "anthropic");
		const tokens = { cachedTokens: 1_000_000, newTokens: 1_000_000, outputTokens: 1_000_000 };
		expect(costOf(opus as never, tokens)).toBeCloseTo(0.5 + 6.25 + 25);
		const plain = priceOf(table, "claude-haiku", undefined);
		expect(costOf(plain as never, tokens)).toBeCloseTo(3 + 3 + 15);
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

	it("ships a valid default table with its date and sources", () => {
		const shipped = readPrices();
		expect(shipped.models.length).toBeGreaterThan(0);
		expect(shipped.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
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

	it("refuses a bad --prices file, located", async () => {
		const dir = tempDir();
		const file = join(dir, "prices.yaml");
		writeFileSync(file, "models:\n  - match: x\n    output: 1\n");
		const result = await runCli(["replay", log(), "--prices", file]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`${file}:2:`);
		const missing = join(dir, "no-prices.yaml");
		const none = await runCli(["replay", log(), "--prices", missing]);
		expect(none.code).toBe(1);
		expect(none.stderr).toBe(
			`theway-context: ${missing}: cannot read the price table (ENOENT: no such file)\n`,
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
			`theway-context: ${fifo}: cannot read the price table (it is a FIFO, not a regular file)\n`,
		);
		const folder = await runCli(["replay", log(), "--prices", dir]);
		expect(folder.code).toBe(1);
		expect(folder.stderr).toContain(`${dir}: cannot read the price table (it is a directory,`);
	});
});

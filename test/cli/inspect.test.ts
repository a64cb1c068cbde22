/** `theway-context inspect`: the JSON shape, the table, the options and their errors. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { HEADER, user, writeLog } from "../support/session.js";
import { hasRawControl } from "../support/terminal.js";

const FRAMINGS = join(import.meta.dirname, "..", "fixtures/sessions/framings.jsonl");

describe("inspect --format json", () => {
	it("prints the measures with the documented fields", async () => {
		const result = await runCli(["inspect", FRAMINGS, "--format", "json"]);
		expect(result.code, result.stderr).toBe(0);
		const json = JSON.parse(result.stdout);
		expect(Object.keys(json.tokenizer)).toEqual(["name", "label", "exact"]);
		expect(Object.keys(json.systemPrompt)).toEqual(
			expect.arrayContaining(["chars", "tokens", "sections"]),
		);
		for (const s of json.systemPrompt.sections) {
			expect(Object.keys(s)).toEqual(
				expect.arrayContaining(["name", "chars", "tokens", "template"]),
			);
		}
		for (const m of json.messages) {
			expect(Object.keys(m)).toEqual(
				expect.arrayContaining(["index", "role", "kind", "entryId", "chars", "tokens"]),
			);
		}
		expect(Object.keys(json.total)).toEqual(["chars", "tokens"]);
		expect(json).toHaveProperty("recordedUsage");
	});

	it("--tokenizer o200k counts every model in o200k, exactly", async () => {
		const result = await runCli(["inspect", FRAMINGS, "--format", "json", "--tokenizer", "o200k"]);
		expect(JSON.parse(result.stdout).tokenizer).toMatchObject({ name: "o200k", exact: true });
	});

	it("--tokenizer chars labels its counts as an estimate", async () => {
		const result = await runCli(["inspect", FRAMINGS, "--format", "json", "--tokenizer", "chars"]);
		expect(JSON.parse(result.stdout).tokenizer).toMatchObject({ name: "chars", exact: false });
	});
});

describe("inspect (text)", () => {
	it("lists every section and message with a bar, the total and the cache-stable prefix", async () => {
		const json = JSON.parse((await runCli(["inspect", FRAMINGS, "--format", "json"])).stdout);
		const result = await runCli(["inspect", FRAMINGS]);
		expect(result.code, result.stderr).toBe(0);
		for (const s of json.systemPrompt.sections) {
			expect(result.stdout).toMatch(new RegExp(`^  ${s.name} .* ${s.tokens}  [█▉▊▋▌▍▎▏]`, "m"));
		}
		for (const m of json.messages) {
			expect(result.stdout).toMatch(
				new RegExp(`^  #${m.index} .* ${m.entryId} .* ${m.tokens}  `, "m"),
			);
		}
		expect(result.stdout).toMatch(
			new RegExp(`^total .* ${json.total.tokens.toLocaleString("en-US")}$`, "m"),
		);
		expect(result.stdout).toContain(`cache-stable prefix above: ${json.cacheStable.tokens} tokens`);
	});

	it("escapes control characters from the session in previews", async () => {
		const path = writeLog([HEADER, user("u1", null, "\u001b]52;c;cGF5bG9hZA==\u0007 hi")]);
		const result = await runCli(["inspect", path]);
		expect(result.code, result.stderr).toBe(0);
		expect(hasRawControl(result.stdout)).toBe(false);
		expect(result.stdout).toContain("\\x1b]52;c;");
	});
});

describe("inspect: usage", () => {
	it.each([
		[["inspect"], /missing <session.jsonl>/],
		[
			["inspect", FRAMINGS, "--tokenizer", "llama"],
			/--tokenizer must be auto, o200k, cl100k, chars or a table file/,
		],
		[["inspect", FRAMINGS, "--format", "yaml"], /--format must be text or json/],
	])("%j is wrong usage (exit 2)", async (argv, message) => {
		const result = await runCli(argv);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(message);
	});

	it("a missing file is bad input (exit 1), located", async () => {
		const result = await runCli(["inspect", "nope.jsonl"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("nope.jsonl");
	});
});

/**
 * `theway-context replay` on the command line: the JSON shape, a folder with
 * a damaged log or a path not there (reported, the others replayed), `--vs` over a folder, the
 * text report ending with its chart, and usage errors.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAIN_USAGE } from "../../src/cli/main.js";
import { runCli } from "../support/cli.js";
import { assistant, HEADER, user } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { editLastLine, templateSet } from "../support/template-sets.js";

const VIRTUALIZED = join(import.meta.dirname, "../fixtures/sessions/virtualized.jsonl");

/** A folder with two good logs and one damaged one. */
function folder(): string {
	const dir = tempDir("theway-replay-");
	copyFileSync(VIRTUALIZED, join(dir, "a.jsonl"));
	const lines = [HEADER, user("u1", null, "hi"), assistant("a1", "u1", "hello")];
	writeFileSync(join(dir, "b.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	writeFileSync(join(dir, "broken.jsonl"), "this is not a session log\n{}\n");
	return dir;
}

describe("replay --format json", () => {
	it("prints the documented shape", async () => {
		const result = await runCli(["replay", VIRTUALIZED, "--format", "json"]);
		expect(result.code, result.stderr).toBe(0);
		const json = JSON.parse(result.stdout);
		expect(Object.keys(json)).toEqual(["sessions", "summary"]);
		const [session] = json.sessions;
		expect(Object.keys(session)).toEqual([
			"file",
			"set",
			"calls",
			"total",
			"recordedFit",
			"units",
			"billed",
		]);
		expect(Object.keys(session.billed)).toEqual([
			"calls",
			"input",
			"cacheRead",
			"cacheWrite",
			"output",
			"cost",
		]);
		expect(Object.keys(json.summary.billed)).toEqual(Object.keys(session.billed));
		expect(Object.keys(session.calls[0])).toEqual([
			"index",
			"entryId",
			"model",
			"contextTokens",
			"cachedTokens",
			"newTokens",
			"outputTokens",
			"recorded",
			"cost",
			"unit",
		]);
		expect(Object.keys(session.total)).toEqual([
			"calls",
			"contextTokens",
			"cachedTokens",
			"newTokens",
			"outputTokens",
			"cost",
		]);
		expect(Object.keys(session.calls[0].recorded ?? {})).toEqual(
			expect.arrayContaining(["input", "cacheRead", "cacheWrite", "output"]),
		);
		expect(session.total.calls).toBe(session.calls.length);
	});

	it("goes on past a damaged log in a folder, reporting it, on several threads", async () => {
		const result = await runCli(["replay", folder(), "--format", "json", "--jobs", "2"]);
		expect(result.code).toBe(1);
		const json = JSON.parse(result.stdout);
		const byName = Object.fromEntries(
			json.sessions.map((s: { file: string }) => [s.file.split("/").at(-1), s]),
		);
		expect(byName["broken.jsonl"].error).toMatch(/\S/);
		expect(byName["a.jsonl"].calls.length).toBeGreaterThan(0);
		expect(byName["b.jsonl"].calls).toHaveLength(1);
		expect(json.summary).toMatchObject({ sessions: 3, failed: 1 });
		// Said on stderr too, located, whatever the report's format (the summary alone names no file).
		const summary = await runCli(["replay", folder(), "--format", "json", "--summary"]);
		expect(summary.code).toBe(1);
		expect(summary.stderr).toMatch(/broken\.jsonl(:\d+)*: error: /);
		const stdin = await runCli(["replay", "-"]);
		expect(stdin.code).toBe(2);
		expect(stdin.stderr).toMatch(/standard input\) is no session file here/);
		// A file named again inside a folder given is replayed once.
		const dir = folder();
		const twice = await runCli(["replay", dir, join(dir, "a.jsonl"), "--format", "json"]);
		expect(JSON.parse(twice.stdout).summary).toMatchObject({ sessions: 3, failed: 1 });
	});

	it("goes on past a named path that is not there, as past a log it cannot read; stops when none is", async () => {
		const dir = folder();
		const missing = join(dir, "gone.jsonl");
		for (const args of [
			["replay", join(dir, "a.jsonl"), missing, "--format", "json"],
			["diff", join(dir, "a.jsonl"), missing, "--from", "v1", "--to", "v2", "--format", "json"],
		]) {
			const result = await runCli(args);
			expect(result.code, args[0]).toBe(1);
			expect(result.stderr).toMatch(/gone\.jsonl: error: .*no such file/);
			expect(result.stdout).toContain("a.jsonl");
		}
		const none = await runCli(["replay", missing, join(dir, "gone2.jsonl")]);
		expect(none.code).toBe(1);
		expect(none.stdout).toBe("");
		expect(none.stderr).toMatch(/gone\.jsonl: error: no such file or folder\n$/);
	});

	it("--vs over a folder: each session's calls under both sets, and the change", async () => {
		const dir = tempDir("theway-replay-vs-");
		for (const name of ["one", "two"]) {
			const lines = [HEADER, user("u1", null, `hi ${name}`), assistant("a1", "u1", "hello")];
			lines.push(user("u2", "a1", "more"), assistant("a2", "u2", "sure"));
			writeFileSync(
				join(dir, `${name}.jsonl`),
				`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
			);
		}
		const base = templateSet();
		const edited = templateSet({
			"harness.hbs": (text) => editLastLine(text, " Keep every answer short."),
		});
		const args = ["replay", dir, "--format", "json", "--templates", base, "--vs", edited];
		const result = await runCli(args);
		expect(result.code, result.stderr).toBe(0);
		const json = JSON.parse(result.stdout);
		const deltas = new Set<number>();
		for (const s of json.sessions) {
			expect(s.vs.calls).toHaveLength(s.calls.length);
			expect(s.vs.change.contextTokens).toBe(s.vs.total.contextTokens - s.total.contextTokens);
			// The harness grows the system prompt by the same tokens at every call.
			expect(s.vs.change.contextTokens).toBe(s.vs.change.newTokens * s.calls.length);
			deltas.add(s.vs.change.newTokens);
		}
		expect([...deltas]).toHaveLength(1);
		expect([...deltas][0]).toBeGreaterThan(0);
		expect(json.summary.vs.change.contextTokens).toBe(
			json.sessions.reduce(
				(n: number, s: { vs: { change: { contextTokens: number } } }) =>
					n + s.vs.change.contextTokens,
				0,
			),
		);
	});
});

describe("replay (text)", () => {
	it("prints the totals and fit, and ends with the per-call chart", async () => {
		const result = await runCli(["replay", VIRTUALIZED]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/cached .* new/);
		expect(result.stdout).toMatch(/recorded fit/);
		const tail = result.stdout.trimEnd().split("\n").slice(-3);
		expect(tail[0]).toMatch(/^│[░█ ]+ 0$/);
		expect(tail[2]).toMatch(/^░ cached {2}█ new {2}· \d+ calls$/);
	});

	it("is listed in the main usage; --help prints its own", async () => {
		expect(MAIN_USAGE).toMatch(/replay/);
		const help = await runCli(["replay", "--help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toMatch(/^Usage: theway-context replay/);
	});

	it("refuses wrong usage with code 2", async () => {
		expect((await runCli(["replay"])).code).toBe(2);
		expect((await runCli(["replay", VIRTUALIZED, "--format", "xml"])).code).toBe(2);
		expect((await runCli(["replay", VIRTUALIZED, "--jobs", "0"])).code).toBe(2);
		const missing = await runCli(["replay", "no-such-file.jsonl"]);
		expect(missing.code).toBe(1);
	});
});

/**
 * `eval` end to end against a fake provider on 127.0.0.1: the cache (a
 * repeated run sends nothing; the key is nowhere on disk), the cost
 * estimate and `--max-cost` (refused, nothing sent), a stop keeping what was
 * answered, `--vs` and its flips, `--samples`, assertions and the exit
 * code, `--dry-run`, and the report's forms. Sets are the spec's own
 * (`test/spec/templates`, whose harness names its version).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runEval } from "../../src/eval/eval.js";
import { Prices } from "../../src/replay/prices.js";
import { runCli } from "../support/cli.js";
import { dryLines, rebuild } from "../support/dry-run.js";
import { writeAgentSession } from "../support/eval-session.js";
import { ANTHROPIC_TEST_KEY, fakeProviderEachTest } from "../support/fake-provider.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const KEY = ANTHROPIC_TEST_KEY;
const SETS = ["--templates", "test/spec/templates", "--template-version", "v1"];
const provider = fakeProviderEachTest();

const evalArgs = (file: string, ...more: string[]) => [
	"eval",
	file,
	"--model",
	"anthropic:claude-sonnet-4-5",
	"--base-url",
	provider.url,
	...SETS,
	...more,
];

/** Every file under `dir`, read. */
function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, "utf8")];
	});
}

describe("eval", () => {
	it("refuses a cache folder it cannot make, or a report it cannot write, before sending anything", async () => {
		const file = writeAgentSession();
		const blocked = join(tempDir(), "a-file");
		writeFileSync(blocked, "");
		const run = await runCli(evalArgs(file, "--cache", join(blocked, "cache")));
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/cannot make the response cache's folder/);
		expect(provider.fake.requests).toHaveLength(0);
		// So is a report it could not write.
		const out = await runCli(evalArgs(file, "--out", join(blocked, "report.txt")));
		expect(out.code).toBe(1);
		expect(out.stderr).toMatch(/cannot write the report/);
		expect(provider.fake.requests).toHaveLength(0);
		// Nor a report over a session log it reads.
		const before = readFileSync(file, "utf8");
		const over = await runCli(evalArgs(file, "--out", file));
		expect(over.code).toBe(2);
		expect(over.stderr).toMatch(/--out .* would write over the session log/);
		expect(readFileSync(file, "utf8")).toBe(before);
		expect(provider.fake.requests).toHaveLength(0);
	});

	it("answers from the cache on a repeated run, sending nothing, and keeps no key on disk", async () => {
		const file = writeAgentSession();
		const cache = tempDir();
		const first = await runCli(
			evalArgs(file, "--calls", "all", "--cache", cache, "--format", "json"),
		);
		expect(first.code).toBe(0);
		expect(provider.fake.requests).toHaveLength(4);
		const again = await runCli(
			evalArgs(file, "--calls", "all", "--cache", cache, "--format", "json"),
		);
		expect(provider.fake.requests).toHaveLength(4);
		const report = JSON.parse(again.stdout);
		expect(report.runs.every((r: { fromCache: boolean }) => r.fromCache)).toBe(true);
		expect(report.summary).toMatchObject({ fromCache: 4, cost: 0 });
		expect(again.stderr).toMatch(/4 requests \(4 in the cache\), 0 input tokens/);
		const stored = filesUnder(cache);
		expect(stored).toHaveLength(4);
		for (const text of [...stored, first.stdout, first.stderr, again.stdout])
			expect(text).not.toContain(KEY);
		// Without the key, a run the cache answers whole still goes; one that must send says which variable.
		vi.stubEnv("ANTHROPIC_API_KEY", "");
		expect((await runCli(evalArgs(file, "--calls", "all", "--cache", cache))).code).toBe(0);
		const missing = await runCli(evalArgs(file, "--no-cache"));
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/ANTHROPIC_API_KEY is not set/);
	});

	it("prints the estimate and refuses a run over --max-cost, sending nothing", async () => {
		const file = writeAgentSession();
		const run = await runCli(
			evalArgs(file, "--calls", "all", "--no-cache", "--max-cost", "0.0001"),
		);
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/estimate: at most \$0\.\d+/);
		expect(run.stderr).toMatch(/over --max-cost \$0\.0001; nothing sent/);
		expect(provider.fake.requests).toHaveLength(0);
		const cheap = await runCli(
			evalArgs(file, "--no-cache", "--max-tokens", "10", "--max-cost", "1"),
		);
		expect(cheap.code).toBe(0);
		expect(provider.fake.requests).toHaveLength(1);
	});

	it("with --vs, asks under both sets and lists the calls whose choice flips", async () => {
		const file = writeAgentSession();
		const run = await runCli(
			evalArgs(file, "--calls", "0,2", "--vs", "v2", "--no-cache", "--format", "json"),
		);
		const report = JSON.parse(run.stdout);
		expect(report.set).toBe("v1");
		expect(report.vs.set).toBe("v2");
		expect(report.runs.map((r: { index: number }) => r.index)).toEqual([0, 2]);
		expect(report.summary.flips).toEqual([
			{ file: expect.any(String), index: 0, sample: 0, a: "read", b: "(text)" },
			{ file: expect.any(String), index: 2, sample: 0, a: "read", b: "(text)" },
		]);
		const text = await runCli(evalArgs(file, "--calls", "0", "--vs", "v2", "--no-cache"));
		expect(text.stdout).toMatch(/flip: .* call 0 sample 0: read \(v1\) → \(text\) \(v2\)/);
		expect(text.stdout).toMatch(/flips: 1/);
	});

	it("asks --samples times per call, each sample cached on its own", async () => {
		const file = writeAgentSession();
		const cache = tempDir();
		const run = await runCli(
			evalArgs(file, "--samples", "3", "--cache", cache, "--format", "json"),
		);
		expect(provider.fake.requests).toHaveLength(3);
		expect(JSON.parse(run.stdout).runs.map((r: { sample: number }) => r.sample)).toEqual([0, 1, 2]);
		await runCli(evalArgs(file, "--samples", "4", "--cache", cache));
		expect(provider.fake.requests).toHaveLength(4);
	});

	it("checks assertions, exits 1 when one fails, and writes JUnit and Markdown", async () => {
		const file = writeAgentSession();
		const dir = tempDir();
		const tests = join(dir, "tests.yaml");
		const { writeFileSync } = await import("node:fs");
		writeFileSync(
			tests,
			[
				"tests:",
				"  - name: reads first",
				"    calls: [0]",
				"    assert:",
				"      - {type: tool-called, value: read}",
				"      - {type: arguments-match, value: {tool: read, arguments: {path: a.txt}}}",
				"      - {type: same-as-recorded, value: arguments}",
				"  - name: never edits",
				"    assert:",
				"      - {type: not-tool-called, value: edit}",
				"      - {type: contains, value: hello}",
			].join("\n"),
		);
		const run = await runCli(
			evalArgs(file, "--calls", "0", "--assert", tests, "--no-cache", "--format", "json"),
		);
		expect(run.code).toBe(1);
		const results = JSON.parse(run.stdout).runs[0].assertions;
		expect(results.map((a: { pass: boolean }) => a.pass)).toEqual([true, true, true, true, false]);
		expect(results[4]).toMatchObject({
			name: 'never edits: contains "hello"',
			reason: "the text does not contain it",
		});
		const junit = await runCli(
			evalArgs(file, "--calls", "0", "--assert", tests, "--no-cache", "--format", "junit"),
		);
		expect(junit.stdout.match(/<testcase /g)).toHaveLength(5);
		expect(junit.stdout.match(/<failure /g)).toHaveLength(1);
		const out = join(dir, "report.md");
		await runCli(
			evalArgs(
				file,
				"--calls",
				"0",
				"--assert",
				tests,
				"--no-cache",
				"--format",
				"markdown",
				"--out",
				out,
			),
		);
		expect(readFileSync(out, "utf8")).toMatch(
			/^## Eval\n[\s\S]*assertions: 4 passed, 1 failed[\s\S]*\| call \| set \|/,
		);
		// A test held for a call no session asks about checks nothing there, and says so.
		const elsewhere = await runCli(
			evalArgs(file, "--calls", "1", "--assert", tests, "--no-cache", "--format", "json"),
		);
		expect(elsewhere.stderr).toMatch(
			/the test "reads first" names call 0, which no session asks about/,
		);
		expect(elsewhere.stderr).not.toMatch(/never edits/);
	});

	it("refuses a bad assertions file with every problem located", async () => {
		const file = writeAgentSession();
		const tests = join(tempDir(), "bad.yaml");
		const { writeFileSync } = await import("node:fs");
		writeFileSync(
			tests,
			"tests:\n  - name: x\n    assert:\n      - {type: tool-caled, value: read}\n      - {type: regex, value: '('}\n",
		);
		const run = await runCli(evalArgs(file, "--assert", tests, "--no-cache"));
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/bad\.yaml:4:\d+: .*type/);
		expect(run.stderr).toMatch(/bad\.yaml:5:\d+: .*not a valid regular expression/);
		expect(provider.fake.requests).toHaveLength(0);
	});

	it("says which sessions have no model call to ask, instead of leaving them out without a word", async () => {
		const dir = tempDir();
		const agent = readFileSync(writeAgentSession(), "utf8");
		writeFileSync(join(dir, "agent.jsonl"), agent);
		writeFileSync(join(dir, "quiet.jsonl"), `${agent.split("\n")[0]}\n`);
		const run = await runCli(evalArgs(dir, "--calls", "all", "--dry-run"));
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toMatch(
			/1 session\(s\) with no model call to ask \(quiet\.jsonl\): left out/,
		);
	});

	it("numbers calls as replay does: a message written in a model's place is no call", async () => {
		const answer = (text: string, model: string, output: number) => ({
			role: "assistant",
			content: [{ type: "text", text }],
			provider: "openclaw",
			model,
			usage: { input: output, cacheRead: 0, cacheWrite: 0, output },
			stopReason: "stop",
			timestamp: 2,
		});
		const file = writeLog([
			HEADER,
			user("u1", null, "one"),
			{ ...assistant("a1", "u1", "x"), message: answer("first", "claude-sonnet-4-5", 5) },
			{ ...assistant("m1", "a1", "x"), message: answer("mirrored", "delivery-mirror", 0) },
			user("u2", "m1", "two"),
			{ ...assistant("a2", "u2", "x"), message: answer("second", "claude-sonnet-4-5", 7) },
			{ ...assistant("m2", "a2", "x"), message: answer("mirrored", "delivery-mirror", 0) },
		]);
		const replay = await runCli(["replay", file, "--format", "json", ...SETS]);
		const replayed = JSON.parse(replay.stdout).sessions[0].calls.map(
			(c: { index: number; entryId: string }) => [c.index, c.entryId],
		);
		expect(replayed).toEqual([
			[0, "a1"],
			[1, "a2"],
		]);
		const all = await runCli(evalArgs(file, "--calls", "all", "--dry-run"));
		expect(all.code, all.stderr).toBe(0);
		expect(dryLines(all.stdout).map((r) => [r.index, r.entryId])).toEqual(replayed);
		const last = await runCli(evalArgs(file, "--dry-run"));
		expect(dryLines(last.stdout).map((r) => r.entryId)).toEqual(["a2"]);
	});

	it("--dry-run writes every request, each as render prints it, a session's context once, and sends nothing", async () => {
		const file = writeAgentSession();
		const run = await runCli(evalArgs(file, "--calls", "all", "--vs", "v2", "--dry-run"));
		expect(run.code).toBe(0);
		expect(provider.fake.requests).toHaveLength(0);
		const lines = dryLines(run.stdout);
		expect(lines.map((r) => `${r.index}${r.set}`)).toEqual([
			"0v1",
			"0v2",
			"1v1",
			"1v2",
			"2v1",
			"2v2",
			"3v1",
			"3v2",
		]);
		const requests = rebuild(lines);
		// Call i's context is the branch up to its parent: what render gives at that leaf.
		const parents = ["u1", "r1", "u2", "r3"];
		for (const request of requests) {
			const version = request.set;
			const render = await runCli([
				"render",
				file,
				"--leaf",
				parents[request.index] as string,
				"--format",
				"anthropic",
				"--model",
				"claude-sonnet-4-5",
				"--templates",
				"test/spec/templates",
				"--template-version",
				version,
			]);
			expect(request.body, `call ${request.index} under ${version}`).toEqual(
				JSON.parse(render.stdout),
			);
		}
		// A later call's line holds what the one before it lacks, not the context again.
		const written = (set: string) =>
			lines.filter((l) => l.set === set).map((l) => (l.body.messages as unknown[]).length);
		const whole = (set: string) =>
			requests.filter((r) => r.set === set).map((r) => (r.body.messages as unknown[]).length);
		for (const set of ["v1", "v2"]) {
			const [first, ...later] = written(set);
			expect(first).toBe(whole(set)[0]);
			// Each call adds its answer and what followed it; the one before's last message is written again (its cache breakpoint moved).
			expect(later.every((n) => n <= 3)).toBe(true);
			expect(whole(set).at(-1)).toBeGreaterThan(3);
		}
		expect(
			lines.slice(2).every((l) => l.previous === l.index - 1 && l.same?.includes("system")),
		).toBe(true);
		expect(run.stderr).toMatch(/seed \d+/);
		expect(run.stderr).toMatch(/8 requests, [\d,]+ input tokens to send/);
		expect(run.stderr).toMatch(/session's tools, with an open object schema/);
		// --out writes the same lines to the file.
		const out = join(tempDir(), "requests.jsonl");
		const toFile = await runCli(
			evalArgs(file, "--calls", "all", "--vs", "v2", "--dry-run", "--out", out),
		);
		expect(toFile).toMatchObject({ code: 0, stdout: "" });
		expect(readFileSync(out, "utf8")).toBe(run.stdout);
	});

	it("on a stop, sends nothing more and reports what was answered, which stays in the cache", async () => {
		const file = writeAgentSession();
		const cache = tempDir();
		const controller = new AbortController();
		provider.fake.script.push({ status: 200, json: undefined }); // replaced below
		provider.fake.script.length = 0;
		let answered = 0;
		const outcome = await runEval({
			files: [file],
			model: { provider: "anthropic", model: "claude-sonnet-4-5" },
			sides: [{ templates: join(import.meta.dirname, "../spec/templates"), version: "v1" }],
			selection: { kind: "all" },
			seed: 1,
			samples: 1,
			maxTokens: 10,
			tests: [],
			prices: new Prices(),
			concurrency: 1,
			cacheDir: cache,
			dryRun: false,
			baseUrl: provider.url,
			apiKey: KEY,
			tokenizer: "chars",
			signal: controller.signal,
			say: () => undefined,
			progress: () => {
				if (++answered === 2) controller.abort();
			},
		});
		expect(outcome.dryRun).toBe(false);
		if (outcome.dryRun) return;
		expect(provider.fake.requests).toHaveLength(2);
		expect(outcome.report.stopped).toBe(true);
		expect(outcome.report.runs).toHaveLength(2);
		expect(outcome.report.summary.notSent).toBe(2);
		expect(filesUnder(cache)).toHaveLength(2);
	});

	it("goes on past a call that fails, reporting its error, and exits 1", async () => {
		const file = writeAgentSession();
		provider.fake.script.push({
			status: 400,
			json: { type: "error", error: { type: "invalid_request_error", message: "bad request" } },
		});
		const run = await runCli(
			evalArgs(file, "--calls", "0,1", "--no-cache", "--concurrency", "1", "--format", "json"),
		);
		expect(run.code).toBe(1);
		const report = JSON.parse(run.stdout);
		expect(report.runs[0].error).toMatch(/400/);
		expect(report.runs[1].error).toBeNull();
		expect(report.summary.errors).toBe(1);
	});
});

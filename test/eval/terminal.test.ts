/**
 * `eval` as a real process: the progress line (requests done, errors,
 * dollars so far) on a terminal only, a pseudo-terminal given by util-linux
 * `script`, and none on a pipe; and Ctrl-C (SIGINT) sent after the first
 * answer: exit 1, as documented, the partial report written to --out, the
 * answered call in the cache, and no request sent after it. The built CLI
 * against the fake provider on 127.0.0.1.
 */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_CLI, HAVE_BUILT_CLI, startCli } from "../support/built-cli.js";
import { ROOT } from "../support/cli.js";
import { writeAgentSession } from "../support/eval-session.js";
import { FakeProvider } from "../support/fake-provider.js";
import { tempDir } from "../support/temp.js";

const HAVE_SCRIPT = spawnSync("script", ["--version"]).status === 0;
const ENV = { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "" };
let fake: FakeProvider;
let url: string;

beforeEach(async () => {
	fake = new FakeProvider();
	url = await fake.start();
	fake.move = () => ({ tool: "read", arguments: { path: "a.txt" } });
});
afterEach(async () => {
	await fake.stop();
});

/** `eval` over the test's session, every call, one request at a time, the report to `out`. */
function evalArgs(out: string, ...more: string[]): string[] {
	return [
		"eval",
		writeAgentSession(),
		"--model",
		"anthropic:claude-sonnet-4-5",
		"--base-url",
		url,
		"--templates",
		join(ROOT, "test/spec/templates"),
		"--calls",
		"all",
		"--concurrency",
		"1",
		"--out",
		out,
		...more,
	];
}

/** What `argv` run on a pseudo-terminal (util-linux `script`) writes to it, and its exit code. */
function onTerminal(argv: readonly string[]): Promise<{ code: number; text: string }> {
	const quoted = [process.execPath, BUILT_CLI, ...argv]
		.map((a) => `'${a.replaceAll("'", `'\\''`)}'`)
		.join(" ");
	const child = spawn("script", ["-qfec", quoted, "/dev/null"], {
		env: { ...process.env, ...ENV },
		stdio: ["ignore", "pipe", "pipe"],
	});
	let text = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		text += chunk;
	});
	return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, text })));
}

const PROGRESS = /\reval: (\d+)\/(\d+) requests, (\d+) errors?, \$(\d+\.\d{4})/g;

describe.skipIf(!HAVE_BUILT_CLI)("eval as a process", () => {
	it.skipIf(!HAVE_SCRIPT)("shows its progress on a terminal, and not on a pipe", async () => {
		const dir = tempDir();
		const tty = await onTerminal(evalArgs(join(dir, "a.json"), "--no-cache"));
		expect(tty.code, tty.text).toBe(0);
		const lines = [...tty.text.matchAll(PROGRESS)];
		expect(lines.map((m) => `${m[1]}/${m[2]}`)).toEqual(["1/4", "2/4", "3/4", "4/4"]);
		expect(lines.map((m) => m[3])).toEqual(["0", "0", "0", "0"]);
		// The dollars grow with each answer (the fake's usage at Sonnet's price).
		const dollars = lines.map((m) => Number(m[4]));
		expect(dollars[0]).toBeGreaterThan(0);
		expect(dollars[3]).toBeCloseTo(4 * (dollars[0] as number), 3);
		const piped = startCli(
			evalArgs(join(dir, "b.json"), "--no-cache", "--format", "json"),
			dir,
			ENV,
		);
		expect(await piped.exited, piped.stderr()).toBe(0);
		expect(piped.stderr()).not.toMatch(/requests, \d+ error/);
		expect(piped.stderr()).not.toContain("\r");
		expect(JSON.parse(readFileSync(join(dir, "b.json"), "utf8")).runs).toHaveLength(4);
	});

	it("stops on Ctrl-C after the first answer: the partial report, the cache, nothing more sent", async () => {
		const dir = tempDir();
		const cache = join(dir, "cache");
		const out = join(dir, "report.json");
		// The first request is answered, and the next one hangs until the process stops.
		const answer = fake.move;
		fake.move = (r) => {
			fake.script.push({ hang: true });
			return answer(r);
		};
		const cli = startCli(evalArgs(out, "--cache", cache, "--format", "json"), dir, ENV);
		await until(() => fake.requests.length === 2 || cli.stderr().includes("error"));
		expect(cli.child.kill("SIGINT")).toBe(true);
		expect(await cli.exited, cli.stderr()).toBe(1);
		const report = JSON.parse(readFileSync(out, "utf8"));
		expect(report.stopped).toBe(true);
		expect(report.runs.map((r: { index: number }) => r.index)).toEqual([0]);
		expect(report.runs[0].answer.toolCalls).toEqual([
			{ name: "read", arguments: { path: "a.txt" } },
		]);
		expect(report.summary.notSent).toBe(3);
		expect(cli.stderr()).toMatch(/stopped: 3 requests not sent/);
		expect(
			readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith(".json")),
		).toHaveLength(1);
		// Nothing was sent after the stop (the process is gone; the fake saw the two).
		expect(fake.requests).toHaveLength(2);
		// A run again answers the first call from the cache, asking only for the others.
		fake.move = answer;
		const again = startCli(evalArgs(out, "--cache", cache, "--format", "json"), dir, ENV);
		expect(await again.exited, again.stderr()).toBe(0);
		expect(fake.requests).toHaveLength(5);
		expect(JSON.parse(readFileSync(out, "utf8")).summary.fromCache).toBe(1);
	});
});

/** Resolves once `done` holds, polled; fails after 20 s. */
async function until(done: () => boolean): Promise<void> {
	const end = Date.now() + 20_000;
	while (!done()) {
		if (Date.now() > end) throw new Error("timed out");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

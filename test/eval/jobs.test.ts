/**
 * `eval --jobs N`: each session's requests are prepared on one of N threads
 * (the corpus pool), and the report is the same whatever N. The built CLI
 * against the fake provider with --jobs 1 and --jobs 2 gives the same JSON
 * but for latencies; and a session a worker thread of the pool prepares
 * (the built bundle) is, to the byte, what this thread prepares, its calls
 * or a dry run's requests.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { createTask, type PreparedSession, type PrepareInit } from "../../src/eval/prepare.js";
import { BUILT_CLI, HAVE_BUILT_CLI, startCli } from "../support/built-cli.js";
import { ROOT } from "../support/cli.js";
import { agentSessionLines } from "../support/eval-session.js";
import { fakeProviderEachTest } from "../support/fake-provider.js";
import { tempDir } from "../support/temp.js";

const SETS = join(ROOT, "test/spec/templates");
const provider = fakeProviderEachTest();

/** A folder of `count` sessions, each asking about a file of its own, and one that cannot be read. */
function corpus(count: number): string {
	const dir = tempDir("theway-eval-jobs-");
	mkdirSync(join(dir, "more"));
	for (let i = 0; i < count; i++) {
		const lines = agentSessionLines().map((l) =>
			JSON.stringify(l).replaceAll("a.txt", `file-${i}.txt`),
		);
		writeFileSync(join(dir, i % 2 === 0 ? "" : "more", `s${i}.jsonl`), `${lines.join("\n")}\n`);
	}
	writeFileSync(join(dir, "more", "broken.jsonl"), "not a session\n");
	return dir;
}

/** The report, latencies aside (the one thing a run's timing changes). */
function withoutLatency(stdout: string): unknown {
	const report = JSON.parse(stdout) as {
		runs: { latencyMs: unknown }[];
		vs?: { runs: { latencyMs: unknown }[] };
	};
	for (const run of [...report.runs, ...(report.vs?.runs ?? [])]) run.latencyMs = 0;
	return report;
}

/** `files` prepared on a worker thread of the pool, from the built bundle. */
async function onWorker(init: PrepareInit, files: string[]): Promise<PreparedSession[]> {
	const module = pathToFileURL(join(BUILT_CLI, "../eval.cjs")).href;
	const worker = new Worker(join(BUILT_CLI, "../pool-worker.js"), { workerData: { module, init } });
	try {
		return await new Promise<PreparedSession[]>((resolve, reject) => {
			worker.on("error", reject);
			worker.on("message", (m: { ready?: true; results?: PreparedSession[] }) => {
				if (m.ready) worker.postMessage({ start: 0, items: files });
				else resolve(m.results as PreparedSession[]);
			});
		});
	} finally {
		await worker.terminate();
	}
}

describe("eval --jobs", () => {
	it.skipIf(!HAVE_BUILT_CLI)(
		"reports the same whatever the number of threads",
		{ timeout: 60_000 },
		async () => {
			const dir = corpus(12);
			const run = async (jobs: string) => {
				const cli = startCli(
					[
						"eval",
						".",
						"--model",
						"anthropic:claude-sonnet-4-5",
						"--base-url",
						provider.url,
						"--templates",
						SETS,
						"--template-version",
						"v1",
						"--vs",
						"v2",
						"--calls",
						"sample:2",
						"--seed",
						"5",
						"--concurrency",
						"8",
						"--no-cache",
						"--format",
						"json",
						"--jobs",
						jobs,
					],
					dir,
					{ ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "" },
				);
				const code = await cli.exited;
				return { code, report: withoutLatency(cli.stdout()), stderr: cli.stderr() };
			};
			const one = await run("1");
			const sent = provider.fake.requests.length;
			const two = await run("2");
			expect(one.code, one.stderr).toBe(1); // the broken session
			expect(two.code, two.stderr).toBe(1);
			expect(sent).toBe(12 * 2 * 2);
			expect(provider.fake.requests.length).toBe(2 * sent);
			expect(two.report).toEqual(one.report);
			expect(one.report).toMatchObject({ failed: [{ file: "more/broken.jsonl" }] });
		},
	);

	it.skipIf(!HAVE_BUILT_CLI)("prepares a session on a worker thread as it does here", async () => {
		const dir = corpus(3);
		const init: PrepareInit = {
			sides: [
				{ templates: SETS, version: "v1" },
				{ templates: SETS, version: "v2" },
			],
			settings: { model: { provider: "openai", model: "gpt-x" }, maxTokens: 100 },
			manifest: [{ name: "grep", parameters: { type: "object" } }],
			selection: { kind: "all" },
			seed: 7,
			tokenizer: "chars",
			strict: false,
		};
		const files = [
			join(dir, "s0.jsonl"),
			join(dir, "more", "s1.jsonl"),
			join(dir, "more", "broken.jsonl"),
		];
		const here = files.map(createTask(init));
		expect(here.map((s) => s.calls.length)).toEqual([4, 4, 0]);
		expect(here[2]?.error).toBeDefined();
		expect(JSON.stringify(await onWorker(init, files))).toBe(JSON.stringify(here));
		// A dry run's requests, written against the one before, likewise.
		const dry = { ...init, dryRun: true };
		const dryHere = files.map(createTask(dry));
		expect(dryHere.map((s) => s.dry?.length)).toEqual([8, 8, undefined]);
		expect(JSON.stringify(await onWorker(dry, files))).toBe(JSON.stringify(dryHere));
	});
});

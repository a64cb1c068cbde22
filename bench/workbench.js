/**
 * The workbench's figures, measured side by side:
 *  1. `inspect` of a ~100k-token context (load, render and measure every
 *     section and message, o200k), in-process with the tokenizer loaded,
 *     beside the plain load of the same log; and the whole command in a
 *     fresh process (tokenizer load included).
 *  2. `diff` of 1,000 sessions (two template sets, every section and framing
 *     compared and counted), in sessions per second on one job and on all
 *     cores, each a fresh `theway-context diff` process, alternating, medians;
 *     beside them the machine's ceiling (two one-job processes on half the
 *     corpus each, at once); and of 20 sessions (a corpus too small for
 *     workers to pay off).
 *  3. A 30,000-line snapshot diff (the build's drift report), in a fresh
 *     process: time and the peak memory it adds, for three drifts: 10% of
 *     lines changed, every line rewritten, and a scrambled structural text
 *     (repeated lines in random order: the worst case for Myers).
 * Targets: inspect ≤ 150 ms; snapshot diff < 1 s and < 100 MB.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextService } from "../dist/index.js";
import { measureLoaded, measuringService } from "../dist/measure/session.js";
import { loadTokenizerSync } from "../dist/text/tokenizer.js";
import { linear, OUT_DIR } from "./generate.js";
import { concurrently, fmt, median, table, timeRounds } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist/cli/bin.cjs");
const SESSIONS = 1000;

function progress(message) {
	process.stderr.write(`… ${message}\n`);
}

/** The log whose context is closest above 100k o200k tokens. */
function hundredKTokens() {
	const tokenizer = loadTokenizerSync("o200k");
	for (const entries of [1800, 2000, 2500, 3000]) {
		const path = linear(entries, { onGenerate: (p) => progress(`generating ${p}`) });
		const { size } = measureLoaded(measuringService(), path, tokenizer);
		if (size.total.tokens >= 100_000) return { path, entries, tokens: size.total.tokens };
	}
	throw new Error("no generated log reaches 100k tokens");
}

function benchInspect() {
	progress("inspect of a ~100k-token context");
	const { path, entries, tokens } = hundredKTokens();
	const tokenizer = loadTokenizerSync("o200k");
	const times = timeRounds(
		{
			load: () => new ContextService().loadSync(path),
			inspect: () => measureLoaded(measuringService(), path, tokenizer),
		},
		{ runs: 9, warmup: 2 },
	);
	const cli = [];
	for (let i = 0; i < 5; i++) {
		const start = performance.now();
		spawnSync(process.execPath, [BIN, "inspect", path, "--format", "json"], { stdio: "ignore" });
		cli.push(performance.now() - start);
	}
	const baseline = [];
	for (let i = 0; i < 5; i++) {
		const start = performance.now();
		spawnSync(process.execPath, [BIN, "render", path, "--format", "json"], { stdio: "ignore" });
		baseline.push(performance.now() - start);
	}
	return {
		entries,
		tokens,
		load: median(times.load),
		inspect: median(times.inspect),
		cli: median(cli),
		render: median(baseline),
	};
}

/** 1,000 sessions (a few shapes, copied) and a v2 set with its harness and a framing edited. */
function corpus() {
	const dir = join(OUT_DIR, `corpus-${SESSIONS}`);
	const shapes = [20, 60, 150].map((n) => linear(n, {}));
	if (!existsSync(join(dir, `s${SESSIONS - 1}.jsonl`))) {
		progress(`writing ${SESSIONS} sessions`);
		mkdirSync(dir, { recursive: true });
		for (let i = 0; i < SESSIONS; i++)
			copyFileSync(shapes[i % shapes.length], join(dir, `s${i}.jsonl`));
	}
	const templates = join(OUT_DIR, "diff-templates");
	cpSync(join(ROOT, "templates"), templates, { recursive: true });
	cpSync(join(ROOT, "categories.yaml"), join(OUT_DIR, "categories.yaml"));
	const sets = readFileSync(join(ROOT, "templates/lock.json"), "utf8");
	const newest = Object.keys(JSON.parse(sets).sets)
		.sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
		.at(-1);
	cpSync(join(templates, newest), join(templates, "v9999"), { recursive: true });
	const harness = join(templates, "v9999/harness.hbs");
	writeFileSync(harness, `${readFileSync(harness, "utf8").trimEnd()} Always.\n`);
	return { dir, templates, from: newest };
}

/** Rounds of each diff run, one job and all cores alternating (medians: the machine may be shared). */
const DIFF_ROUNDS = 3;
const SMALL_CORPUS = 20;

async function benchDiff() {
	const { dir, templates, from } = corpus();
	// The machine's ceiling: two processes of one job each, on half the corpus each, at once.
	const halves = [0, 1].map((h) => {
		const half = join(OUT_DIR, `corpus-${SESSIONS}-half-${h}`);
		mkdirSync(half, { recursive: true });
		for (let i = h; i < SESSIONS; i += 2)
			copyFileSync(join(dir, `s${i}.jsonl`), join(half, `s${i}.jsonl`));
		return half;
	});
	const small = join(OUT_DIR, `corpus-${SMALL_CORPUS}`);
	mkdirSync(small, { recursive: true });
	for (let i = 0; i < SMALL_CORPUS; i++)
		copyFileSync(join(dir, `s${i}.jsonl`), join(small, `s${i}.jsonl`));
	const cores = availableParallelism();
	const args = (folder, jobs) => [
		BIN,
		"diff",
		folder,
		"--templates",
		templates,
		"--from",
		from,
		"--to",
		"v9999",
		"--format",
		"json",
		"--jobs",
		String(jobs),
	];
	const run = (folder, sessions, jobs) => {
		const start = performance.now();
		const child = spawnSync(process.execPath, args(folder, jobs), {
			encoding: "utf8",
			maxBuffer: 64 * 1024 * 1024,
		});
		const ms = performance.now() - start;
		const summary = JSON.parse(child.stdout).summary;
		return { jobs, ms, perSecond: (sessions / ms) * 1000, changed: summary.changed };
	};
	/** Medians of one job and all cores on `folder`, run in alternation. */
	const sideBySide = async (folder, sessions, ceiling) => {
		const one = [];
		const all = [];
		const two = [];
		for (let i = 0; i < DIFF_ROUNDS; i++) {
			progress(`diff of ${sessions} sessions, 1 job and ${cores} (round ${i + 1})`);
			one.push(run(folder, sessions, 1));
			all.push(run(folder, sessions, cores));
			if (ceiling) two.push(await concurrently(halves.map((h) => args(h, 1))));
		}
		const mid = (runs) => runs.sort((a, b) => a.ms - b.ms)[runs.length >> 1];
		return { one: mid(one), all: mid(all), ...(ceiling ? { two: median(two) } : {}) };
	};
	return {
		cores,
		...(await sideBySide(dir, SESSIONS, true)),
		small: await sideBySide(small, SMALL_CORPUS, false),
	};
}

function benchLineDiff() {
	const child = join(ROOT, "bench/line-diff-child.js");
	return ["tenth", "rewritten", "scrambled"].map((kind) => {
		progress(`30,000-line snapshot diff: ${kind}`);
		const runs = [1, 2, 3].map(() => {
			const out = spawnSync(process.execPath, ["--expose-gc", child, kind], { encoding: "utf8" });
			return JSON.parse(out.stdout.trim());
		});
		return {
			kind,
			ms: median(runs.map((r) => r.ms)),
			mb: median(runs.map((r) => (r.peakKb - r.beforeKb) / 1024)),
		};
	});
}

/** Runs the workbench measurements and prints them; returns verdict lines. */
export async function benchWorkbench() {
	const inspect = benchInspect();
	const diff = await benchDiff();
	const lineDiff = benchLineDiff();
	console.log("\nWorkbench");
	console.log(
		table(
			["measure", "ms", "vs"],
			[
				[
					`inspect in-process (${inspect.entries} entries, ${inspect.tokens.toLocaleString("en-US")} tokens)`,
					fmt(inspect.inspect),
					`${fmt(inspect.inspect / inspect.load, 2)}x load (${fmt(inspect.load)} ms)`,
				],
				[
					"inspect, whole command (fresh process)",
					fmt(inspect.cli),
					`${fmt(inspect.cli / inspect.render, 2)}x render --format json (${fmt(inspect.render)} ms)`,
				],
				[
					`diff ${SESSIONS} sessions, 1 job`,
					fmt(diff.one.ms, 0),
					`${fmt(diff.one.perSecond, 0)} sessions/s`,
				],
				[
					`diff ${SESSIONS} sessions, ${diff.cores} jobs`,
					fmt(diff.all.ms, 0),
					`${fmt(diff.all.perSecond, 0)} sessions/s (${fmt(diff.all.perSecond / diff.one.perSecond, 2)}x 1 job)`,
				],
				[
					"  ceiling: 2 processes of 1 job, half each, at once",
					fmt(diff.two, 0),
					`${fmt(diff.one.ms / diff.two, 2)}x 1 job`,
				],
				[`diff ${SMALL_CORPUS} sessions, 1 job`, fmt(diff.small.one.ms, 0), ""],
				[
					`diff ${SMALL_CORPUS} sessions, ${diff.cores} jobs`,
					fmt(diff.small.all.ms, 0),
					`${fmt(diff.small.one.ms / diff.small.all.ms, 2)}x 1 job`,
				],
				...lineDiff.map((d) => [
					`30,000-line snapshot diff, ${d.kind}`,
					fmt(d.ms),
					`+${fmt(d.mb)} MB peak`,
				]),
			],
		),
	);
	const verdict = (ok, line) => ({
		status: ok ? "PASS" : "FAIL",
		line: `${ok ? "PASS" : "FAIL"} ${line}`,
	});
	const worstDiff = lineDiff.reduce((a, b) => (b.ms > a.ms ? b : a));
	const worstMb = Math.max(...lineDiff.map((d) => d.mb));
	return [
		verdict(inspect.inspect <= 150, `inspect of ~100k tokens ≤ 150 ms: ${fmt(inspect.inspect)} ms`),
		verdict(
			worstDiff.ms < 1000,
			`30,000-line snapshot diff < 1 s: ${fmt(worstDiff.ms)} ms (${worstDiff.kind})`,
		),
		verdict(worstMb < 100, `30,000-line snapshot diff < 100 MB: +${fmt(worstMb)} MB peak`),
		verdict(
			diff.cores < 2 || diff.all.perSecond / diff.one.perSecond >= 1.6,
			`diff ${SESSIONS} sessions on ${diff.cores} cores ≥ 1.6x 1 job: ${fmt(diff.all.perSecond / diff.one.perSecond, 2)}x (medians of ${DIFF_ROUNDS}; this machine's ceiling, two independent processes on half each: ${fmt(diff.one.ms / diff.two, 2)}x)`,
		),
		verdict(
			diff.small.all.ms <= diff.small.one.ms * 1.05,
			`diff ${SMALL_CORPUS} sessions on ${diff.cores} cores no slower than 1 job: ${fmt(diff.small.one.ms / diff.small.all.ms, 2)}x`,
		),
		verdict(
			diff.one.changed === SESSIONS && diff.all.changed === SESSIONS,
			`diff saw every session change (${diff.all.changed}/${SESSIONS})`,
		),
	];
}

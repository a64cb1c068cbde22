/**
 * The benchmark of theway-context: `npm run bench` (1k, 10k, 100k entries) or
 * `npm run bench -- --full` (adds 1M entries and a 500 MB compacted log).
 *
 * What is measured, on synthetic pi-like logs from ./generate.js (cached in bench/out/):
 *  1. Full load vs the floor. The floor is the least any loader does: read the
 *     file, split it into lines, JSON.parse each, keep the objects. Two floors:
 *     `readFileSync(utf8)` + `split("\n")` (impossible past V8's max string
 *     length, ~512 MiB), and a Buffer line reader (4 MB chunks, indexOf("\n"),
 *     toString per line). The load is `new ContextService().loadSync(path)`
 *     (read + validate + tree + project + render), a fresh service per run.
 *     Medians over repeated runs after warm-up, GC between runs (untimed).
 *  2. Time per entry (load ms / entries) and its linearity: 1M vs 100k.
 *  3. Reload after one append: one service loads a copy of the log, then ~20
 *     times a user message is appended (parentId = the current leaf) and the
 *     load repeated; the median reload vs the full load.
 *  4. System prompt render alone (template set compiled once), with tinybench.
 *  5. Peak memory: each load in a child process (./child.js), its maxRSS.
 * Then a verdict per target. A FAIL is reported, never fatal: the exit code is 0.
 * MB here is 2^20 bytes, for file sizes and RSS alike.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, rmSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bench } from "tinybench";
import { ContextService } from "../dist/index.js";
import { renderSystemPrompt } from "../dist/render/system-prompt.js";
import { TemplateRegistry } from "../dist/templates/registry.js";
import { deriveSystemView } from "../dist/view/derive.js";
import { compacted, linear, MEMORY, OUT_DIR, TOOLS } from "./generate.js";
import {
	bufferFloor,
	fitsInString,
	gc,
	median,
	pairedRatio,
	runsFor,
	stringFloor,
	timeRounds,
	timeRoundsInChildren,
} from "./measure.js";
import {
	label,
	printLoads,
	printPeaks,
	printReloads,
	printRender,
	verdict,
	verdicts,
} from "./report.js";
import { runtimeBench } from "./runtime.js";
import { benchLoadSteps, benchReloads, stepVerdicts } from "./steps.js";
import { benchVirtualize } from "./virtualize.js";
import { benchWorkbench } from "./workbench.js";

const FULL = process.argv.includes("--full");
const SIZES = [1_000, 10_000, 100_000, ...(FULL ? [1_000_000] : [])];
const LARGEST = SIZES.at(-1);
const MB = 1024 * 1024;
const APPENDS = 20;
const CHILD = fileURLToPath(new URL("./child.js", import.meta.url));
const BENCH = fileURLToPath(new URL(".", import.meta.url));

/** Progress on stderr, so stdout is the report alone. */
function progress(message) {
	process.stderr.write(`… ${message}\n`);
}

function fileMb(path) {
	return statSync(path).size / MB;
}

/** The logs every measurement needs, generated on first use. */
function prepareFiles() {
	const onGenerate = (path) => progress(`generating ${basename(path)}`);
	const files = { linear: new Map(), compacted: compacted(LARGEST, { onGenerate }) };
	for (const size of SIZES) files.linear.set(size, linear(size, { onGenerate }));
	if (FULL) {
		// As many entries as make ~500 MB, at the compacted shape's bytes per entry.
		const sample = compacted(100_000, { onGenerate });
		const perEntry = statSync(sample).size / 100_000;
		const entries = Math.round((500 * MB) / perEntry / 1000) * 1000;
		files.big = compacted(entries, { onGenerate });
		files.bigEntries = entries;
	}
	return files;
}

/** 1. Floors and full load on one file. */
function measureLoad(shape, entries, path) {
	progress(`load vs floor: ${shape} ${label(entries)}`);
	const plan = runsFor(entries);
	const fns = {
		buf: () => bufferFloor(path),
		load: () => new ContextService().loadSync(path),
		...(fitsInString(path) ? { str: () => stringFloor(path) } : {}),
	};
	// Two ways to time a run. In process, after warm-ups: the JIT-warm code a
	// daemon runs; the floor ratio is judged on that. In a fresh process per run
	// (bench/time-child.js): no run inherits the heap an earlier one grew, which
	// on a 600 MB log distorts later runs; linearity is judged on that, at both
	// sizes alike. 1M entries are timed only in fresh processes.
	const big = entries >= 1_000_000;
	const times = big ? undefined : timeRounds(fns, plan);
	const fresh = entries >= 100_000 ? timeRoundsInChildren(Object.keys(fns), path, plan) : undefined;
	const t = times ?? fresh;
	const [str, buf, load] = [t.str && median(t.str), median(t.buf), median(t.load)];
	const ratios = {
		str: t.str && pairedRatio(t.load, t.str),
		buf: pairedRatio(t.load, t.buf),
	};
	const floor = str ?? buf;
	const freshLoad = fresh && median(fresh.load);
	const freshBuf = fresh && median(fresh.buf);
	return {
		shape,
		entries,
		mb: fileMb(path),
		str,
		buf,
		load,
		floor,
		ratios,
		runs: plan.runs,
		freshLoad,
		freshBuf,
	};
}

/**
 * 3. Median reload after appending one user message, on a scratch copy of
 * `source`: back to back (steady state), then with a forced full GC before
 * each reload (V8 then starts from cleared caches, see the report's note).
 */
function measureReload(source) {
	progress(`reload after append: ${basename(source)}`);
	const copy = join(OUT_DIR, `scratch-${process.pid}-${basename(source)}`);
	copyFileSync(source, copy);
	try {
		const service = new ContextService();
		const state = { bundle: service.loadSync(copy), appends: 0 };
		const first = state.bundle.meta.entryCount;
		const warm = reloadTimes(service, copy, state, false);
		const afterGc = reloadTimes(service, copy, state, true);
		if (state.bundle.meta.entryCount !== first + state.appends) {
			throw new Error("appends were not read");
		}
		return { warm: median(warm), afterGc: median(afterGc), messages: state.bundle.messages.length };
	} finally {
		rmSync(copy, { force: true });
	}
}

/** APPENDS timed reloads (after 3 untimed), each after appending one entry to `path`. */
function reloadTimes(service, path, state, collect) {
	const times = [];
	for (let i = 0; i < APPENDS + 3; i++) {
		const entry = appended(state.bundle.meta.leafId, state.appends++);
		appendFileSync(path, `${JSON.stringify(entry)}\n`);
		if (collect) gc();
		const start = performance.now();
		state.bundle = service.loadSync(path);
		if (i >= 3) times.push(performance.now() - start);
	}
	return times;
}

function appended(parentId, i) {
	const timestamp = Date.UTC(2027, 0, 1) + i * 1000;
	return {
		type: "message",
		id: `bench-append-${i}`,
		parentId,
		timestamp: new Date(timestamp).toISOString(),
		message: {
			role: "user",
			content: [{ type: "text", text: `One more thing (${i}).` }],
			timestamp,
		},
	};
}

/** 4. renderSystemPrompt alone, template set compiled once, with tinybench. */
async function measureRender() {
	progress("system prompt render");
	const set = TemplateRegistry.for().get();
	const header = {
		type: "session",
		version: 3,
		id: "session-456",
		timestamp: "2026-01-01T00:00:00.000Z",
		cwd: "/home/user/project",
		parentSession: "session-123",
	};
	const metadata = { tools: TOOLS, memory: MEMORY, collapseNodeId: "node-01JEXAMPLE0000000000" };
	const view = deriveSystemView(header, metadata, set);
	const bench = new Bench({ time: 2000, warmupTime: 300 });
	bench.add("renderSystemPrompt", () => renderSystemPrompt(set, view));
	await bench.run();
	const { latency } = bench.tasks[0].result;
	const length = renderSystemPrompt(set, view).length;
	return {
		p50: latency.p50 * 1000,
		p99: latency.p99 * 1000,
		samples: latency.samplesCount,
		length,
	};
}

/** 5. One load in a child process: its peak RSS. */
function measurePeak(name, path) {
	progress(`peak memory: ${name}`);
	const args = ["--expose-gc", CHILD, path ?? "--baseline"];
	const child = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: MB });
	const mb = path === undefined ? 0 : fileMb(path);
	if (child.status !== 0) {
		const reason = (child.stderr.match(/FATAL ERROR[^\n]*|Error[^\n]*/) ?? ["crashed"])[0];
		return { name, mb, error: `${reason.slice(0, 60)} (exit ${child.status ?? child.signal})` };
	}
	const out = JSON.parse(child.stdout.trim().split("\n").at(-1));
	const rss = (out.peakKb ?? out.maxRssKb) / 1024;
	return { name, mb, rss, maxRss: out.maxRssKb / 1024, ms: out.ms, messages: out.messages };
}

/** Runs `fn`, reporting (not throwing) an error, so one failure keeps the report going. */
async function attempt(name, fn) {
	try {
		return await fn();
	} catch (error) {
		console.log(`\nERROR in ${name}: ${error instanceof Error ? error.message : error}`);
		return undefined;
	}
}

async function main() {
	const cpu = cpus()[0]?.model ?? "?";
	console.log(`theway-context benchmark${FULL ? " (--full)" : ""}: node ${process.version},`);
	console.log(
		`${process.platform} ${process.arch}, ${cpus().length} x ${cpu}, ${new Date().toISOString()}`,
	);
	if (globalThis.gc === undefined) console.log("warning: run with --expose-gc for GC between runs");
	const files = prepareFiles();

	const loads = [];
	for (const [size, path] of files.linear) {
		const row = await attempt(`load ${label(size)}`, () => measureLoad("linear", size, path));
		if (row) loads.push(row);
	}
	// The compacted shape at 100k too, so that each shape's linearity compares like with like.
	const compactedSizes = LARGEST === 100_000 ? [LARGEST] : [100_000, LARGEST];
	for (const size of compactedSizes) {
		const path = size === LARGEST ? files.compacted : compacted(size, {});
		const cmp = await attempt(`load compacted ${label(size)}`, () =>
			measureLoad("compacted", size, path),
		);
		if (cmp) loads.push(cmp);
	}
	printLoads(loads);

	const reloads = [];
	const fullOf = (shape, n) => loads.find((l) => l.shape === shape && l.entries === n)?.load;
	const cases = [
		["linear 100k", files.linear.get(100_000), fullOf("linear", 100_000), "<= 5% of full"],
		[`compacted ${label(LARGEST)}`, files.compacted, fullOf("compacted", LARGEST), "<= 1 ms"],
	];
	for (const [name, path, full, target] of cases) {
		const r = await attempt(`reload ${name}`, () => measureReload(path));
		reloads.push(r && { name, full, target, ...r });
	}
	printReloads(reloads.filter(Boolean), APPENDS);

	// Per-turn cost at three lengths (1M generated if missing), and the first load step by step.
	const million = linear(1_000_000, {
		onGenerate: (path) => progress(`generating ${basename(path)}`),
	});
	const lengths = [
		...[10_000, 100_000].map((n) => [label(n), files.linear.get(n)]),
		[label(1_000_000), million],
	];
	const turnRows =
		(await attempt("reload at three lengths", () => benchReloads(lengths, progress))) ?? [];
	const steps = await attempt("load steps", () =>
		benchLoadSteps(files.linear.get(100_000), progress),
	);

	const render = await attempt("render", measureRender);
	if (render) printRender(render);

	const peaks = [measurePeak("baseline (no load)")];
	for (const [size, path] of files.linear) peaks.push(measurePeak(`linear ${label(size)}`, path));
	peaks.push(measurePeak(`compacted ${label(LARGEST)}`, files.compacted));
	if (files.big) {
		const big = measurePeak(`compacted ${label(files.bigEntries)} (~500 MB)`, files.big);
		peaks.push({ ...big, big: true });
	}
	printPeaks(peaks);

	const runtime = await attempt("runtime", () =>
		runtimeBench({
			linear10k: files.linear.get(10_000),
			linear100k: files.linear.get(100_000),
			million,
			progress,
		}),
	);

	const virtualize =
		(await attempt("virtualize", () =>
			benchVirtualize({ linear100k: files.linear.get(100_000), progress }),
		)) ?? [];
	const workbench = (await attempt("workbench", benchWorkbench)) ?? [];
	// The new tools' own benches, each a process of its own, their reports as they print them.
	for (const [name, script] of [
		["replay", "replay.js"],
		["import", "import.js"],
		["ccusage", "ccusage.js"],
		["tokenizer", "tokenizer.js"],
		["language server", "lsp.js"],
	]) {
		progress(`${name} (bench/${script})`);
		const child = spawnSync(process.execPath, ["--expose-gc", join(BENCH, script)], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "inherit"],
			maxBuffer: 64 * MB,
		});
		console.log(`\n${child.stdout.trimEnd()}`);
		if (child.status !== 0) console.log(`(bench/${script} exited ${child.status})`);
	}

	const lines = [
		...verdicts({ loads, reloads, render, peaks }, FULL),
		...(steps && turnRows.length > 0 ? stepVerdicts(turnRows, steps, verdict) : []),
		...(runtime ?? []),
		...virtualize,
		...workbench,
	];
	console.log("\nTargets");
	for (const v of lines) console.log(v.line);
	const failed = lines.filter((v) => v.status === "FAIL").length;
	console.log(failed === 0 ? "\nAll run targets pass." : `\n${failed} target(s) FAIL (see above).`);
}

await main();
process.exitCode = 0;

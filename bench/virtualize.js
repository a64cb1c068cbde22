/**
 * What virtualizing tool results costs, measured side by side:
 *  1. on the 100k-entry benchmark log: the virtualization step (every tool
 *     result decided, nothing cached) as a fraction of the full load of the
 *     same log in the same fresh process, over rounds of fresh processes;
 *  2. on a real pi log, where results over the threshold exist: the same
 *     fraction (the tokenizer's one-time load included, then without it), and
 *     `render --format llm` as a whole process, with and without
 *     `--no-virtualize`;
 *  3. reloads of the 100k log kept open, each after an appended large
 *     result: earlier decisions are kept, only the new result is decided.
 * The real pi log is $THEWAY_PI_LOG, or the shared sample beside the repository.
 * Target: the step costs under 5% of a full load on the 100k log.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextService } from "../dist/index.js";
import { fmt, median, table } from "./measure.js";
import { realPiLog } from "./pi.js";
import { verdict } from "./report.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = join(ROOT, "bench/virtualize-child.js");
const CLI = join(ROOT, "dist/cli/bin.js");
const TARGET = 0.05;

/** `runs` fresh processes of the child on `path`: the median step / load, and the last run's counts. */
function stepInChildren(path, runs) {
	const rows = [];
	for (let i = 0; i < runs; i++) {
		const out = execFileSync(process.execPath, ["--expose-gc", CHILD, path], { encoding: "utf8" });
		rows.push(JSON.parse(out.trim().split("\n").at(-1)));
	}
	const last = rows.at(-1);
	return {
		load: median(rows.map((r) => r.load)),
		step: median(rows.map((r) => r.step)),
		fraction: median(rows.map((r) => r.step / r.load)),
		results: last.results,
		stubs: last.stubs,
		tokenizer: last.tokenizer,
	};
}

/** `render --format llm` of `path` as a process, with and without virtualization, in alternating rounds. */
function renderProcesses(path, runs) {
	const times = { on: [], off: [] };
	for (let i = 0; i < runs + 1; i++) {
		for (const name of i % 2 === 0 ? ["on", "off"] : ["off", "on"]) {
			const args = [CLI, "render", path, "--format", "llm", "--quiet"];
			if (name === "off") args.push("--no-virtualize");
			const start = performance.now();
			const child = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
			const ms = performance.now() - start;
			if (child.status !== 0) throw new Error(`render exited ${child.status}: ${child.stderr}`);
			if (i > 0) times[name].push(ms);
		}
	}
	return { on: median(times.on), off: median(times.off) };
}

/**
 * A kept-open session reloaded after each of a few appended large results,
 * with virtualization and without, in alternating order: the median ms of each.
 */
function reloadAfterAppend(source) {
	const scratch = (tag) => {
		const path = join(ROOT, "bench/out", `scratch-virtualize-${tag}-${process.pid}.jsonl`);
		copyFileSync(source, path);
		return path;
	};
	const paths = { on: scratch("on"), off: scratch("off") };
	const services = { on: new ContextService(), off: new ContextService() };
	const options = { on: {}, off: { virtualize: false } };
	let parent;
	for (const k of ["on", "off"]) parent = services[k].loadSync(paths[k], options[k]).meta.leafId;
	const times = { on: [], off: [] };
	let stubs = 0;
	for (let i = 0; i < 10; i++) {
		const id = `bench-append-${i}`;
		const line = `${JSON.stringify({
			type: "message",
			id,
			parentId: parent,
			timestamp: new Date().toISOString(),
			message: {
				role: "toolResult",
				toolCallId: `bench-${i}`,
				toolName: "read",
				content: [{ type: "text", text: `appended result ${i}\n`.repeat(800) }],
				isError: false,
				timestamp: Date.now(),
			},
		})}\n`;
		parent = id;
		for (const k of i % 2 === 0 ? ["on", "off"] : ["off", "on"]) {
			appendFileSync(paths[k], line);
			const start = performance.now();
			const bundle = services[k].loadSync(paths[k], options[k]);
			times[k].push(performance.now() - start);
			if (k === "on") stubs = bundle.meta.virtualized.length;
		}
	}
	for (const path of Object.values(paths)) rmSync(path, { force: true });
	return { on: median(times.on), off: median(times.off), stubs };
}

/** Runs the measures; returns the verdict lines. */
export function benchVirtualize({ linear100k, progress }) {
	progress("virtualization: the step vs a full load of the 100k log (fresh processes)");
	const big = stepInChildren(linear100k, 7);
	progress("virtualization: reloads of the 100k log kept open, after large appends");
	const reload = reloadAfterAppend(linear100k);
	const rows = [
		[
			"100k log: step / full load",
			`${fmt(big.step)} / ${fmt(big.load)} ms`,
			`${fmt(big.fraction * 100, 2)}%`,
			`${big.stubs} stubs of ${big.results} results, tokenizer ${big.tokenizer ? "loaded" : "not needed"}`,
		],
		[
			"100k log kept open: reload after a large append",
			`${fmt(reload.on, 2)} vs ${fmt(reload.off, 2)} ms`,
			`${fmt(reload.on / reload.off, 2)}x`,
			`with vs without; earlier decisions kept (${reload.stubs} stubs: the appended results)`,
		],
	];
	const pi = realPiLog();
	if (pi !== undefined) {
		progress("virtualization: a real pi log");
		const copy = join(ROOT, "bench/out", `scratch-virtualize-${process.pid}.jsonl`);
		copyFileSync(pi, copy);
		const real = stepInChildren(copy, 7);
		const processes = renderProcesses(copy, 9);
		rmSync(copy, { force: true });
		rows.push(
			[
				"real pi log: step / full load",
				`${fmt(real.step)} / ${fmt(real.load)} ms`,
				`${fmt(real.fraction * 100, 0)}%`,
				`${real.stubs} stubs of ${real.results} results, tokenizer ${real.tokenizer ? "loaded (once per process)" : "not needed"}`,
			],
			[
				"real pi log: render --format llm, process",
				`${fmt(processes.on)} vs ${fmt(processes.off)} ms`,
				`${fmt(processes.on / processes.off, 2)}x`,
				"virtualized vs --no-virtualize",
			],
		);
	}
	console.log("\nVirtualized tool results");
	console.log(table(["measure", "ms", "cost", "notes"], rows));
	return [
		verdict(
			big.fraction < TARGET,
			`virtualization < ${TARGET * 100}% of a full load (100k)`,
			`${fmt(big.fraction * 100, 2)}%`,
		),
	];
}

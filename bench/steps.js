/**
 * The per-turn and first-load figures of the runtime path, in process:
 *  - reload after one appended entry on linear 10k, 100k and 1M-entry logs:
 *    a service keeps the log open, an entry extending the leaf is appended,
 *    the load is repeated; medians, with the default options (tool results
 *    virtualized) and with `virtualize: false` (the projection alone), and
 *    the projection's own count of work (entries visited, messages built);
 *  - the first load of a 100k linear log step by step, each step timed
 *    with the ones before it, side by side with the parse-and-keep floor:
 *    the reader (read, parse, check, hand over), the tree, the projection
 *    (messages built and frozen), then the whole load (view, virtualized
 *    results, system prompt). Freezing is timed apart on a copy of the
 *    messages, since the projection cannot leave it out.
 */
import { appendFileSync, copyFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { ContextService } from "../dist/index.js";
import { OpenLog } from "../dist/log/open-log.js";
import { freezeMessage } from "../dist/session/freeze.js";
import { projectBranch } from "../dist/session/project.js";
import { SessionTree } from "../dist/session/tree.js";
import { OUT_DIR } from "./generate.js";
import {
	bufferFloor,
	fmt,
	gc,
	median,
	pairedRatio,
	stringFloor,
	table,
	timeRounds,
} from "./measure.js";

const APPENDS = 20;
const STEP_RUNS = 9;
const TARGET = { reloadMs: 1, floor: 1.1 };

/** A sink that keeps nothing: what the reader costs alone. */
class NullSink {
	count = 0;
	add() {
		this.count++;
	}
	indexOf() {
		return undefined;
	}
	idAt() {
		return "";
	}
	kindAt() {
		return 0;
	}
	finish() {}
}

function appended(parentId, i) {
	const timestamp = Date.UTC(2027, 0, 1) + i * 1000;
	return {
		type: "message",
		id: `steps-append-${i}`,
		parentId,
		timestamp: new Date(timestamp).toISOString(),
		message: { role: "user", content: [{ type: "text", text: `And (${i}).` }], timestamp },
	};
}

/** Median reload ms after one append, on a scratch copy of `source`, with `options`. */
function reloads(source, options) {
	const copy = join(OUT_DIR, `scratch-steps-${process.pid}-${basename(source)}`);
	copyFileSync(source, copy);
	try {
		const service = new ContextService();
		let bundle = service.loadSync(copy, options);
		const times = [];
		for (let i = 0; i < APPENDS + 3; i++) {
			appendFileSync(copy, `${JSON.stringify(appended(bundle.meta.leafId, i))}\n`);
			const start = performance.now();
			bundle = service.loadSync(copy, options);
			if (i >= 3) times.push(performance.now() - start);
		}
		return median(times);
	} finally {
		rmSync(copy, { force: true });
	}
}

/** What the projection of a reload after one append visits and builds, on `source`. */
function reloadWork(source) {
	const copy = join(OUT_DIR, `scratch-work-${process.pid}-${basename(source)}`);
	copyFileSync(source, copy);
	try {
		const log = new OpenLog(copy, (entries, name) => new SessionTree(entries, name));
		log.readSync();
		const frame = (text) => ({ text, diagnostics: [] });
		const first = projectBranch(log.sink, log.header, frame);
		appendFileSync(copy, `${JSON.stringify(appended(first.leafId, 0))}\n`);
		log.readSync();
		return projectBranch(log.sink, log.header, frame, undefined, first).stats;
	} finally {
		rmSync(copy, { force: true });
	}
}

/** Prints the reload table; returns its verdict inputs. */
export function benchReloads(files, progress) {
	const rows = [];
	const results = [];
	for (const [name, path] of files) {
		progress(`reload after one append: ${name}`);
		const whole = reloads(path, { virtualize: false });
		const virtualized = reloads(path, {});
		const work = reloadWork(path);
		results.push({ name, whole, virtualized });
		rows.push([name, fmt(whole, 3), fmt(virtualized, 3), `${work.visited} / ${work.built}`]);
	}
	console.log(`\nReload after one appended entry (in process, median of ${APPENDS})`);
	console.log(table(["linear log", "ms, virtualize off", "ms, default", "visited / built"], rows));
	return results;
}

/** Prints the first-load steps of `path`; returns the whole load's ratio to the floor. */
export function benchLoadSteps(path, progress) {
	progress(`first load step by step: ${basename(path)}`);
	const frame = (text) => ({ text, diagnostics: [] });
	const read = (sink) => {
		const log = new OpenLog(path, sink);
		log.readSync();
		return log;
	};
	const fns = {
		floor: () => stringFloor(path),
		bufferFloor: () => bufferFloor(path),
		reader: () => read(() => new NullSink()),
		tree: () => read((entries, name) => new SessionTree(entries, name)),
		projection: () => {
			const log = read((entries, name) => new SessionTree(entries, name));
			return projectBranch(log.sink, log.header, frame).messages;
		},
		load: () => new ContextService().loadSync(path),
	};
	const t = timeRounds(fns, { runs: STEP_RUNS });
	const ms = (name) => median(t[name]);
	const freeze = timeFreeze(fns.projection());
	// The faster of the two floors (a string per file, or a buffer read in chunks): the least any loader does.
	const floorName = ms("bufferFloor") < ms("floor") ? "bufferFloor" : "floor";
	const floor = ms(floorName);
	const step = (label, name, before) => [
		label,
		fmt(ms(name)),
		`${fmt(ms(name) / floor, 2)}x`,
		before === undefined ? "" : `+${fmt(ms(name) - ms(before))}`,
	];
	console.log(
		`\nFirst load of ${basename(path)}, step by step (in process, median of ${STEP_RUNS})`,
	);
	console.log(
		table(
			["step (each with the ones above)", "ms", "vs floor", "the step"],
			[
				[
					`floor: read, split, JSON.parse each line, keep (${floorName === "floor" ? "one string" : "buffer chunks"})`,
					fmt(floor),
					"1.00x",
					"",
				],
				step("reader: + check, hand over", "reader", floorName),
				step("tree", "tree", "reader"),
				step("projection (built and frozen)", "projection", "tree"),
				["  of which freezing (timed apart)", fmt(freeze), "", ""],
				step("load: + view, virtualized, system prompt", "load", "projection"),
			],
		),
	);
	return { ratio: pairedRatio(t.load, t[floorName]), load: ms("load"), floor };
}

/** Median ms to freeze unfrozen copies of `messages`. */
function timeFreeze(messages) {
	const text = JSON.stringify(messages);
	const times = [];
	for (let i = 0; i < STEP_RUNS; i++) {
		const fresh = JSON.parse(text);
		gc();
		const start = performance.now();
		for (const m of fresh) freezeMessage(m);
		times.push(performance.now() - start);
	}
	return median(times);
}

/** The verdicts of both. */
export function stepVerdicts(reloadRows, steps, verdict) {
	const worst = Math.max(...reloadRows.map((r) => r.whole));
	const worstDefault = Math.max(...reloadRows.map((r) => r.virtualized));
	return [
		verdict(
			worst < TARGET.reloadMs,
			`reload after an append < ${TARGET.reloadMs} ms at every length (projection, virtualize off)`,
			`worst ${fmt(worst, 3)} ms; with virtualized results ${fmt(worstDefault, 3)} ms`,
		),
		verdict(
			steps.ratio <= TARGET.floor,
			`first load 100k <= ${TARGET.floor}x the parse-and-keep floor (in process)`,
			`${fmt(steps.ratio, 2)}x (${fmt(steps.load)} vs ${fmt(steps.floor)} ms)`,
		),
	];
}

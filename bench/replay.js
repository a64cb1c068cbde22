/**
 * `replay`'s speed, measured side by side with one full load of the same
 * log, tokens counted (a load measured as `inspect` measures it): replay
 * walks every model call of the branch, so it must cost about what one
 * load and one count of every message cost, not a load per call.
 *  1. the largest pi sample log (../shared/corpora/pi-real/, skipped when absent);
 *  2. a generated session of at least 2,000 calls.
 * Target: replay ≤ 3× a full load, tokens counted.
 * Usage: npm run build && node --expose-gc bench/replay.js
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureLoaded, measuringService } from "../dist/measure/session.js";
import { Prices } from "../dist/replay/prices.js";
import { Replayer } from "../dist/replay/replay.js";
import { compileTemplateSet } from "../dist/templates/compile.js";
import { DEFAULT_TEMPLATES_DIR } from "../dist/templates/load.js";
import { loadTokenizerSync } from "../dist/text/tokenizer.js";
import { linear } from "./generate.js";
import { fmt, median, pairedRatio, table, timeRounds } from "./measure.js";

const PI_REAL = fileURLToPath(new URL("../../shared/corpora/pi-real/", import.meta.url));
const TARGET = 3;
const CALLS = 2000;

function progress(message) {
	process.stderr.write(`… ${message}\n`);
}

/** The largest .jsonl of the pi sample logs, or undefined. */
function largestPiLog() {
	if (!existsSync(PI_REAL)) return undefined;
	const logs = readdirSync(PI_REAL)
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(PI_REAL, f));
	return logs.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

const tokenizer = loadTokenizerSync("o200k");
const prices = new Prices();
const replayer = () =>
	new Replayer({ side: { templates: DEFAULT_TEMPLATES_DIR } }, tokenizer, prices, {
		compiler: compileTemplateSet,
	});

/** A generated linear log with at least {@link CALLS} model calls. */
function generated() {
	for (let entries = 4000; ; entries += 2000) {
		const path = linear(entries, { onGenerate: (p) => progress(`generating ${p}`) });
		const calls = replayer().replay(path).calls.length;
		if (calls >= CALLS) return { path, name: `generated, ${entries} entries` };
	}
}

function bench(name, path) {
	progress(`replay of ${name}`);
	const sample = replayer().replay(path);
	if (sample.error !== undefined) throw new Error(`${path}: ${sample.error}`);
	const times = timeRounds(
		{
			load: () => measureLoaded(measuringService(), path, tokenizer),
			replay: () => replayer().replay(path),
		},
		{ runs: 7, warmup: 1 },
	);
	const ratio = pairedRatio(times.replay, times.load);
	return {
		name,
		calls: sample.calls.length,
		tokens: sample.total.contextTokens,
		load: median(times.load),
		replay: median(times.replay),
		ratio,
	};
}

const rows = [];
const pi = largestPiLog();
if (pi === undefined) progress("no pi sample logs: skipped");
else rows.push(bench(`pi: ${pi.split("/").at(-1)}`, pi));
const gen = generated();
rows.push(bench(gen.name, gen.path));

console.log("\nreplay vs one full load, tokens counted (o200k; median of 7, paired ratio)");
console.log(
	table(
		[
			"log",
			"calls",
			"context tokens over all calls",
			"load + count",
			"replay",
			"ratio",
			`target ≤ ${TARGET}×`,
		],
		rows.map((r) => [
			r.name,
			String(r.calls),
			r.tokens.toLocaleString("en-US"),
			`${fmt(r.load)} ms`,
			`${fmt(r.replay)} ms`,
			`${r.ratio.toFixed(2)}×`,
			r.ratio <= TARGET ? "met" : "MISSED",
		]),
	),
);

/**
 * Whole-process figures, side by side in one run (each case spawned in
 * turn, round after round, so drift on a busy machine hits all alike):
 *  - cold start: `render --format llm` of a small session and `--help`, vs
 *    `node -e 0`, and which packages the render loads; the same render from
 *    the unbundled ES modules (dist/cli/bin.js), for what the bundle buys;
 *  - the CLI vs pi's own loader (bench/pi-loader.js) on a real pi log and a
 *    generated 10k-entry log, with the floor of any such process beside
 *    them (bench/parse-floor.js: Node reads and parses every line, nothing
 *    else), and `--no-virtualize` where the CLI has that option;
 *  - the sidecar (./sidecar.js).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, median, table } from "./measure.js";
import { PI_LOADER, PI_PREFIX, piInstalled, realPiLogs } from "./pi.js";
import { verdict } from "./report.js";
import { measureSidecar } from "./sidecar.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/bin.cjs");
const CLI_ESM = join(ROOT, "dist/cli/bin.js");
const FLOOR = join(ROOT, "bench/parse-floor.js");
const TRACE = join(ROOT, "bench/trace-imports.js");
const SMALL = join(ROOT, "test/fixtures/examples/1-normal.jsonl");
const TARGET = {
	render: 1.6,
	help: 1.3,
	pi: 1.0,
	floor: 1.15,
	floorGoal: 1.1,
	sidecar: 0.02,
	turn: 3,
};
const COLD_RUNS = 21;
const LOG_RUNS = 21;

/** Runs each command `runs` times in rotating order; the median ms of each, by name. */
function spawnMedians(commands, runs) {
	const names = Object.keys(commands);
	const times = Object.fromEntries(names.map((n) => [n, []]));
	for (let i = 0; i < runs + 1; i++) {
		for (let k = 0; k < names.length; k++) {
			const name = names[(i + k) % names.length];
			const start = performance.now();
			const child = spawnSync(process.execPath, commands[name], {
				stdio: ["ignore", "ignore", "pipe"],
				maxBuffer: 64 * 1024 * 1024,
			});
			const ms = performance.now() - start;
			if (child.status !== 0) throw new Error(`${name} exited ${child.status}: ${child.stderr}`);
			if (i > 0) times[name].push(ms); // the first round warms the file cache
		}
	}
	return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

/** The node_modules packages `render` of a small session loads, with their file counts. */
function packagesLoaded() {
	const args = ["--import", TRACE, CLI, "render", SMALL, "--format", "llm"];
	const child = spawnSync(process.execPath, args, { encoding: "utf8" });
	const files = new Map();
	for (const line of child.stderr.split("\n")) {
		const [tag, pkg, file] = line.split(" ");
		if (tag !== "trace-import") continue;
		files.set(pkg, (files.get(pkg) ?? new Set()).add(file));
	}
	return [...files].map(([pkg, set]) => `${pkg} (${set.size} files)`).join(", ") || "none";
}

function coldStart(progress) {
	progress("cold start: render and --help vs node -e 0");
	const t = spawnMedians(
		{
			node: ["-e", "0"],
			help: [CLI, "--help"],
			render: [CLI, "render", SMALL, "--format", "llm"],
			esm: [CLI_ESM, "render", SMALL, "--format", "llm"],
		},
		COLD_RUNS,
	);
	return { ...t, packages: packagesLoaded() };
}

/** Whether the CLI has `render --no-virtualize` (tool results kept whole, as pi keeps them). */
function hasNoVirtualize() {
	const help = spawnSync(process.execPath, [CLI, "render", "--help"], { encoding: "utf8" });
	return help.stdout.includes("--no-virtualize");
}

/** The CLI vs pi's loader, as processes, on a scratch copy of `source` (pi may rewrite a file it migrates). */
function versusPi(name, source, progress) {
	progress(`CLI vs pi's loader: ${name}`);
	const copy = join(ROOT, "bench/out", `scratch-pi-${process.pid}-${basename(source)}`);
	copyFileSync(source, copy);
	try {
		const cli = [CLI, "render", copy, "--format", "llm", "--quiet"];
		const t = spawnMedians(
			{
				cli,
				...(hasNoVirtualize() ? { whole: [...cli, "--no-virtualize"] } : {}),
				...(piInstalled() ? { pi: [PI_LOADER, copy] } : {}),
				floor: [FLOOR, copy],
				floorWrite: [FLOOR, copy, "--write"],
			},
			LOG_RUNS,
		);
		return { name, ...t };
	} finally {
		rmSync(copy, { force: true });
	}
}

/** Measures and prints; returns the verdict lines. */
export async function runtimeBench({ linear10k, linear100k, million, progress }) {
	const cold = coldStart(progress);
	console.log(`\nCold start (whole process, median of ${COLD_RUNS} runs, side by side)`);
	console.log(
		table(
			["process", "ms", "vs node -e 0"],
			[
				["node -e 0", fmt(cold.node), "1.00x"],
				["theway-context --help", fmt(cold.help), `${fmt(cold.help / cold.node, 2)}x`],
				["render --format llm (small)", fmt(cold.render), `${fmt(cold.render / cold.node, 2)}x`],
				[
					"  the same, unbundled (dist/cli/bin.js)",
					fmt(cold.esm),
					`${fmt(cold.esm / cold.node, 2)}x`,
				],
			],
		),
	);
	console.log(`packages the render loads: ${cold.packages}`);

	const reals = realPiLogs();
	const logs = [
		...reals.map((real) => [`real pi log (${basename(real)})`, real]),
		["generated linear 10k", linear10k],
	];
	const pis = logs.map(([name, path]) => versusPi(name, path, progress));
	console.log(`\nThe CLI vs pi's own loader (processes, median of ${LOG_RUNS} runs)`);
	const vsPi = (r, ms) => (r.pi === undefined ? "–" : `${fmt(ms / r.pi, 2)}x`);
	const vsFloor = (r, ms) => `${fmt(ms / r.floorWrite, 2)}x`;
	const rows = [];
	for (const r of pis) {
		rows.push([r.name, "", "", ""]);
		rows.push([
			"  CLI render --format llm (default set)",
			fmt(r.cli),
			vsPi(r, r.cli),
			vsFloor(r, r.cli),
		]);
		if (r.whole !== undefined)
			rows.push(["  CLI … --no-virtualize", fmt(r.whole), vsPi(r, r.whole), vsFloor(r, r.whole)]);
		rows.push([
			"  pi's loader",
			fmt(r.pi),
			r.pi === undefined ? "–" : "1.00x",
			r.pi === undefined ? "–" : vsFloor(r, r.pi),
		]);
		rows.push([
			"  floor: node parses every line",
			fmt(r.floor),
			vsPi(r, r.floor),
			vsFloor(r, r.floor),
		]);
		rows.push([
			"  floor, and writes them as JSON",
			fmt(r.floorWrite),
			vsPi(r, r.floorWrite),
			"1.00x",
		]);
	}
	console.log(table(["log / process", "ms", "vs pi", "vs the floor that writes"], rows));
	console.log(
		"(floors: bench/parse-floor.js, Node alone reading the file: no tree, no projection, no module of its own to load; the second writes every entry as JSON)",
	);
	if (!piInstalled()) {
		console.log(`pi is not installed in ${PI_PREFIX}: run \`node bench/pi.js --install\`.`);
	}
	if (reals.length === 0) console.log("no real pi log: set THEWAY_PI_LOG=FILE to add that row.");

	const turns = await measureSidecar(
		[
			["linear 10k", linear10k],
			["linear 100k", linear100k],
			["linear 1M", million],
		],
		progress,
	);
	const sidecar = turns[1];
	const perLog = pis.flatMap((r) => [
		verdict(
			r.pi === undefined ? undefined : r.cli / r.pi <= TARGET.pi,
			`${r.name}: render --format llm <= ${TARGET.pi}x pi's loader`,
			r.pi === undefined
				? "needs pi"
				: `${fmt(r.cli / r.pi, 2)}x (${fmt(r.cli)} vs ${fmt(r.pi)} ms)`,
		),
		verdict(
			r.cli / r.floorWrite <= TARGET.floor,
			`${r.name}: render --format llm <= ${TARGET.floor}x the floor that writes (goal ${TARGET.floorGoal}x)`,
			`${fmt(r.cli / r.floorWrite, 2)}x (${fmt(r.cli)} vs ${fmt(r.floorWrite)} ms)`,
		),
	]);
	return [
		verdict(
			cold.render / cold.node <= TARGET.render,
			`cold render <= ${TARGET.render}x node -e 0`,
			`${fmt(cold.render / cold.node, 2)}x (${fmt(cold.render)} vs ${fmt(cold.node)} ms)`,
		),
		verdict(
			cold.help / cold.node <= TARGET.help,
			`--help <= ${TARGET.help}x node -e 0`,
			`${fmt(cold.help / cold.node, 2)}x (${fmt(cold.help)} ms)`,
		),
		...perLog,
		verdict(
			sidecar && sidecar.append / sidecar.first <= TARGET.sidecar,
			`sidecar append <= ${TARGET.sidecar * 100}% of a first load (100k)`,
			sidecar
				? `${fmt((100 * sidecar.append) / sidecar.first, 2)}% (${fmt(sidecar.append, 2)} vs ${fmt(sidecar.first)} ms; ${sidecar.appendBytes} reply bytes)`
				: "–",
		),
		...turns
			.slice(1)
			.map((r) =>
				verdict(
					r.append / turns[0].append <= TARGET.turn,
					`sidecar append at ${r.name} <= ${TARGET.turn}x at ${turns[0].name}`,
					`${fmt(r.append / turns[0].append, 2)}x (${fmt(r.append, 2)} vs ${fmt(turns[0].append, 2)} ms)`,
				),
			),
	];
}

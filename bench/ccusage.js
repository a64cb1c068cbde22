/**
 * `replay` and `import` side by side with ccusage, the tool people already
 * run on Claude Code and Codex logs (part of `npm run bench`; on its own:
 * `npm run build && node bench/ccusage.js`). On the fresh corpus
 * (../shared/corpora/importers/fresh-2026-12-04/, skipped when absent), per
 * source folder, as whole processes in interleaved rounds:
 *  - `ccusage session --json --offline` (pinned, installed outside the repo
 *    by scripts/install-ccusage.sh; skipped with a message when it cannot be);
 *  - `theway-context replay --format json DIR`; target ≤ 3× ccusage;
 *  - `theway-context import --out TMP/ DIR`; target ≤ 1.5× ccusage;
 * then the memory each touches (page faults, peak RSS, CPU; bench/touched.js:
 * a fresh page is dear on a virtual machine, and ours touches several times
 * the pages ccusage does), and where the time of each goes: one run of each
 * under `--cpu-prof`, its samples given to the stages of the work
 * (bench/where.js).
 * ccusage reads Claude Code logs under `$CLAUDE_CONFIG_DIR/projects/` and
 * Codex rollouts under `$CODEX_HOME/sessions/`, and follows no symlinked
 * file: the corpus is copied to a temporary folder (removed after), with a
 * home of its own so no other log on the machine is read.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, median, pairedRatio, table } from "./measure.js";
import { faultCost, method, touched } from "./touched.js";
import { whereTimeGoes } from "./where.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/bin.cjs");
const FRESH = join(ROOT, "../shared/corpora/importers/fresh-2026-12-04");
const ROUNDS = 7;
const TARGETS = { replay: 3, import: 1.5 };

function progress(message) {
	process.stderr.write(`… ${message}\n`);
}

/** The ccusage command (`node_modules/.bin/ccusage` of the pinned install), or undefined with why. */
function installCcusage() {
	const script = join(ROOT, "scripts/install-ccusage.sh");
	const run = spawnSync("bash", [script], { encoding: "utf8" });
	if (run.status !== 0) return { why: (run.stderr || run.stdout).trim().split("\n").at(-1) };
	const dir = run.stdout
		.trim()
		.split("\n")
		.at(-1)
		.split(": ")[1]
		?.replace(/ \(.*\)$/, "");
	const bin = dir === undefined ? undefined : join(dir, "node_modules/.bin/ccusage");
	if (bin === undefined || !existsSync(bin)) return { why: `no ccusage binary in ${dir}` };
	const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
	return { bin, version };
}

/** ccusage's view of one source folder: a config dir, a Codex home and a home, copies of the corpus. */
function ccusageHome(tmp, source) {
	const home = join(tmp, "home");
	const claude = join(tmp, "claude");
	const codex = join(tmp, "codex");
	mkdirSync(home, { recursive: true });
	mkdirSync(join(claude, "projects", "fresh"), { recursive: true });
	mkdirSync(join(codex, "sessions"), { recursive: true });
	const into =
		source === "claude-code" ? join(claude, "projects", "fresh") : join(codex, "sessions");
	cpSync(join(FRESH, source), into, { recursive: true });
	return { HOME: home, CLAUDE_CONFIG_DIR: claude, CODEX_HOME: codex };
}

/** Wall-clock ms of one process; throws when it fails. */
function timed(command, args, env) {
	const start = performance.now();
	const child = spawnSync(command, args, {
		env: { ...process.env, ...env },
		stdio: ["ignore", "ignore", "pipe"],
		maxBuffer: 64 * 1024 * 1024,
	});
	const ms = performance.now() - start;
	if (child.status !== 0 && child.status !== 1) {
		throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	}
	return ms;
}

/** Interleaved rounds of ccusage, replay and import on one source folder; ms per run, by name. */
function benchSource(source, ccusage, tmp) {
	const folder = join(FRESH, source);
	const env = ccusageHome(join(tmp, source), source);
	const out = join(tmp, source, "imported");
	const runs = {
		ccusage: () => timed(ccusage.bin, ["session", "--json", "--offline"], env),
		replay: () => timed(process.execPath, [CLI, "replay", "--format", "json", "--quiet", folder]),
		import: () => {
			rmSync(out, { recursive: true, force: true });
			return timed(process.execPath, [CLI, "import", "--quiet", "--out", `${out}/`, folder]);
		},
	};
	const names = Object.keys(runs);
	for (const name of names) runs[name](); // warm the file cache
	const seen = spawnSync(ccusage.bin, ["session", "--json", "--offline"], {
		env: { ...process.env, ...env },
		encoding: "utf8",
		maxBuffer: 64 * 1024 * 1024,
	});
	const sessions = JSON.parse(seen.stdout).session?.length ?? 0;
	if (sessions === 0) throw new Error(`ccusage found no session in its copy of ${folder}`);
	const times = Object.fromEntries(names.map((n) => [n, []]));
	for (let i = 0; i < ROUNDS; i++) {
		for (let k = 0; k < names.length; k++) {
			const name = names[(i + k) % names.length];
			times[name].push(runs[name]());
		}
	}
	return { times, sessions, runs: { env, folder, out } };
}

/** One row per command of what it touches (median of 3 runs), `node -e 0` first; ms at `cost` µs a page. */
function touchedRows(source, ccusage, { env, folder, out }, cost) {
	const commands = [
		["node -e 0", process.execPath, ["-e", "0"]],
		["ccusage", ccusage.bin, ["session", "--json", "--offline"], { env }],
		["replay", process.execPath, [CLI, "replay", "--format", "json", "--quiet", folder]],
		[
			"import",
			process.execPath,
			[CLI, "import", "--quiet", "--out", `${out}/`, folder],
			{ before: () => rmSync(out, { recursive: true, force: true }) },
		],
	];
	const seen = commands.map(([name, command, args, options]) => [
		name,
		touched(command, args, options),
	]);
	const node = seen[0][1].faults;
	return seen.map(([name, u]) => [
		source,
		name,
		fmt(u.faults, 0),
		name === "node -e 0"
			? ""
			: `${fmt(u.faults - node, 0)} (${fmt(((u.faults - node) * cost) / 1000, 0)} ms)`,
		`${fmt(u.maxRssKb / 1024, 0)} MB`,
		`${fmt(u.userMs, 0)} ms`,
		`${fmt(u.systemMs, 0)} ms`,
	]);
}

function sessionsIn(folder) {
	return readdirSync(folder, { recursive: true }).filter((f) => String(f).endsWith(".jsonl"))
		.length;
}

if (!existsSync(FRESH)) {
	progress(`no fresh corpus at ${FRESH}: the comparison with ccusage is skipped`);
	console.log("\nreplay and import vs ccusage: skipped (no fresh corpus)");
} else {
	const ccusage = installCcusage();
	if (ccusage.bin === undefined) {
		progress(`ccusage cannot be installed (${ccusage.why}): the comparison is skipped`);
		console.log(`\nreplay and import vs ccusage: skipped (ccusage not installed: ${ccusage.why})`);
	} else {
		const tmp = mkdtempSync(join(tmpdir(), "theway-context-ccusage-"));
		const rows = [];
		const touchedTable = [];
		const cost = faultCost();
		try {
			for (const source of ["claude-code", "codex"]) {
				progress(`ccusage, replay and import of fresh ${source}`);
				const { times: t, sessions, runs } = benchSource(source, ccusage, tmp);
				progress(`the memory each touches, on fresh ${source}`);
				touchedTable.push(...touchedRows(source, ccusage, runs, cost));
				for (const name of ["replay", "import"]) {
					const ratio = pairedRatio(t[name], t.ccusage);
					rows.push([
						`${source} (${sessionsIn(join(FRESH, source))} files; ccusage: ${sessions} sessions)`,
						name,
						`${fmt(median(t[name]), 0)} ms`,
						`${fmt(median(t.ccusage), 0)} ms`,
						`${ratio.toFixed(2)}×`,
						`≤ ${TARGETS[name]}×`,
						ratio <= TARGETS[name] ? "met" : "MISSED",
					]);
				}
			}
		} finally {
			rmSync(tmp, { recursive: true, force: true });
		}
		console.log(
			`\nreplay --format json and import vs ${ccusage.version} session --json --offline (whole processes, median of ${ROUNDS} interleaved rounds, paired ratio)`,
		);
		console.log(
			table(["fresh corpus", "command", "theway-context", "ccusage", "ratio", "target", ""], rows),
		);
		console.log(
			`\nthe memory each touches (median of 3 runs; ${method}; a fresh page costs ${fmt(cost, 1)} µs here)`,
		);
		console.log(
			table(
				[
					"fresh corpus",
					"command",
					"page faults",
					"beyond node's own",
					"peak RSS",
					"user CPU",
					"system CPU",
				],
				touchedTable,
			),
		);
		printWhere();
	}
}

/** Where the time of replay and import goes on each fresh folder: ms of CPU samples by stage, and shares. */
function printWhere() {
	progress("where the time goes (one profiled run of each)");
	const tmp = mkdtempSync(join(tmpdir(), "theway-context-where-"));
	const columns = [];
	try {
		for (const source of ["claude-code", "codex"]) {
			const folder = join(FRESH, source);
			columns.push([
				`replay ${source}`,
				whereTimeGoes([CLI, "replay", "--format", "json", "--quiet", folder]),
			]);
			const out = join(tmp, source);
			columns.push([
				`import ${source}`,
				whereTimeGoes([CLI, "import", "--quiet", "--out", `${out}/`, folder]),
			]);
		}
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
	const stages = [...columns[0][1].ms.keys()];
	const rows = stages.map((stage) => [
		stage,
		...columns.map(([, w]) => {
			const ms = w.ms.get(stage) ?? 0;
			return ms === 0 ? "" : `${fmt(ms, 0)} ms ${fmt((100 * ms) / w.total, 0)}%`;
		}),
	]);
	rows.push([
		"all (CPU samples of every thread)",
		...columns.map(([, w]) => `${fmt(w.total, 0)} ms`),
	]);
	console.log(
		"\nwhere the time goes (one run of each under --cpu-prof, each sample given to the first stage its stack names, innermost first)",
	);
	console.log(table(["stage", ...columns.map(([name]) => name)], rows));
}

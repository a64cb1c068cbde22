/**
 * Memory a command touches, next to its time: a page of memory costs a
 * fault the first time a process touches it, and on some machines (virtual
 * ones) a fault is dear. Used by bench/ccusage.js to say how much of the
 * gap to ccusage is pages rather than instructions.
 *  - `touched(command, args, options)`: the minor page faults, peak RSS,
 *    user and system CPU of one run of a command and every process it waits
 *    for (median of runs), as GNU time reports them (`/usr/bin/time`, the
 *    `time` package). ccusage's Node wrapper runs a native binary: only the
 *    whole tree is a fair count. Without GNU time, a Node command's own
 *    usage at its exit (bench/touched-preload.cjs), its children left out;
 *    `method` says which.
 *  - `faultCost()`: µs per fresh page here, from a child that touches
 *    128 MB it has never touched (the faults counted, the time taken).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const PRELOAD = fileURLToPath(new URL("./touched-preload.cjs", import.meta.url));
const GNU_TIME = "/usr/bin/time";

/** How {@link touched} measures here. */
export const method = existsSync(GNU_TIME)
	? "GNU time: the command and every process it waits for"
	: "the Node process alone (no /usr/bin/time here: a child it starts is not counted)";

/** One run's usage: `{ faults, maxRssKb, userMs, systemMs }`. */
function runOnce(command, args, env, dir) {
	const out = join(dir, "usage");
	const gnu = existsSync(GNU_TIME);
	const run = gnu
		? spawnSync(GNU_TIME, ["-o", out, "-f", "%R %M %U %S", command, ...args], {
				env: { ...process.env, ...env },
				stdio: ["ignore", "ignore", "pipe"],
				maxBuffer: 64 * 1024 * 1024,
			})
		: spawnSync(command, args, {
				env: {
					...process.env,
					...env,
					NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${PRELOAD}`.trim(),
					TOUCHED_OUT: out,
				},
				stdio: ["ignore", "ignore", "pipe"],
				maxBuffer: 64 * 1024 * 1024,
			});
	if (run.status !== 0 && run.status !== 1)
		throw new Error(`${command} ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
	const text = readFileSync(out, "utf8");
	if (!gnu) return JSON.parse(text);
	// The last line: GNU time writes "Command exited with non-zero status 1" before it.
	const [faults, maxRssKb, user, system] = text.trim().split("\n").at(-1).split(" ").map(Number);
	return { faults, maxRssKb, userMs: user * 1000, systemMs: system * 1000 };
}

/** The resource usage of `command args…`, median of `runs` runs; `before` runs first each time. */
export function touched(command, args, { env = {}, runs = 3, before } = {}) {
	const dir = mkdtempSync(join(tmpdir(), "theway-context-touched-"));
	try {
		const seen = [];
		for (let i = 0; i < runs; i++) {
			before?.();
			seen.push(runOnce(command, args, env, dir));
		}
		const mid = (key) => median(seen.map((s) => s[key]));
		return {
			faults: mid("faults"),
			maxRssKb: mid("maxRssKb"),
			userMs: mid("userMs"),
			systemMs: mid("systemMs"),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** µs a fresh page costs here: a child touches 128 MB once (median of 3). */
export function faultCost() {
	const script = `
		const before = process.resourceUsage().minorPageFault;
		const start = performance.now();
		const b = Buffer.allocUnsafeSlow(128 * 1024 * 1024);
		for (let i = 0; i < b.length; i += 4096) b[i] = 1;
		const ms = performance.now() - start;
		const faults = process.resourceUsage().minorPageFault - before;
		process.stdout.write(JSON.stringify({ faults, ms }));`;
	const costs = [];
	for (let i = 0; i < 3; i++) {
		const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
		const { faults, ms } = JSON.parse(run.stdout);
		costs.push((1000 * ms) / faults);
	}
	return median(costs);
}

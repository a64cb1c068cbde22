/**
 * Memory a command touches, next to its time: a page of memory costs a
 * fault the first time a process touches it, and on some machines (virtual
 * ones) a fault is dear. Used by bench/ccusage.js to say how much of the
 * gap to ccusage is pages rather than instructions.
 *  - `touched(command, args, env)`: one run of a Node command with
 *    bench/touched-preload.cjs preloaded; its minor page faults, peak RSS,
 *    user and system CPU, as the process saw them at exit (median of runs);
 *  - `faultCost()`: µs per fresh page here, from a child that touches
 *    128 MB it has never touched (the faults counted, the time taken).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const PRELOAD = fileURLToPath(new URL("./touched-preload.cjs", import.meta.url));

/** The resource usage of `command args…` at its exit, median of `runs` runs; `before` runs first each time. */
export function touched(command, args, { env = {}, runs = 3, before } = {}) {
	const dir = mkdtempSync(join(tmpdir(), "theway-context-touched-"));
	const out = join(dir, "usage.json");
	try {
		const seen = [];
		for (let i = 0; i < runs; i++) {
			before?.();
			const run = spawnSync(command, args, {
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
			seen.push(JSON.parse(readFileSync(out, "utf8")));
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

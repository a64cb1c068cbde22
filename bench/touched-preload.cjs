/**
 * Preloaded (`NODE_OPTIONS=--require …`) by bench/touched.js into a Node
 * process it measures: at exit, the process's own resource usage (pages
 * first touched, peak memory, CPU) is written as JSON to the file
 * `TOUCHED_OUT` names. Main thread only; any Node command (ccusage too).
 */
const { writeFileSync } = require("node:fs");
const { isMainThread } = require("node:worker_threads");

const out = process.env.TOUCHED_OUT;
if (isMainThread && out !== undefined) {
	process.on("exit", () => {
		const u = process.resourceUsage();
		writeFileSync(
			out,
			JSON.stringify({
				faults: u.minorPageFault,
				maxRssKb: u.maxRSS,
				userMs: u.userCPUTime / 1000,
				systemMs: u.systemCPUTime / 1000,
			}),
		);
	});
}

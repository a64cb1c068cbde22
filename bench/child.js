/**
 * One load in a fresh process, for peak memory: `node --expose-gc bench/child.js <path>`
 * prints `{"peakKb", "maxRssKb", "ms", "entries", "messages"}` on one line. `peakKb`
 * is VmHWM from /proc/self/status (Linux): getrusage's maxRSS
 * (`process.resourceUsage().maxRSS`) survives fork + exec on Linux, so in a
 * child it is at least the parent's RSS at spawn time. With
 * `--baseline` instead of a path it loads nothing: the library, the compiled
 * templates and Node itself (the RSS every load starts from).
 */
import { readFileSync } from "node:fs";
import { ContextService } from "../dist/index.js";

/** The peak RSS of this process image in KB, or undefined where /proc is missing. */
function vmHwmKb() {
	try {
		const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
		return match === null ? undefined : Number(match[1]);
	} catch {
		return undefined;
	}
}

const [arg] = process.argv.slice(2);
if (arg === undefined) {
	console.error("usage: node --expose-gc bench/child.js <session.jsonl> | --baseline");
	process.exit(2);
}
const service = new ContextService();
service.templateSet();
const start = performance.now();
const bundle = arg === "--baseline" ? undefined : service.loadSync(arg);
const ms = performance.now() - start;
console.log(
	JSON.stringify({
		peakKb: vmHwmKb(),
		maxRssKb: process.resourceUsage().maxRSS,
		ms,
		entries: bundle?.meta.entryCount ?? 0,
		messages: bundle?.messages.length ?? 0,
	}),
);

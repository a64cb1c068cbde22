/**
 * One load in a fresh process, for peak memory: `node --expose-gc bench/child.js <path>`
 * prints `{"maxRssKb", "ms", "entries", "messages"}` on one line. With
 * `--baseline` instead of a path it loads nothing: the library, the compiled
 * templates and Node itself (the RSS every load starts from).
 */
import { ContextService } from "../dist/index.js";

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
		maxRssKb: process.resourceUsage().maxRSS,
		ms,
		entries: bundle?.meta.entryCount ?? 0,
		messages: bundle?.messages.length ?? 0,
	}),
);

/**
 * One fresh process: `node --expose-gc bench/virtualize-child.js <session.jsonl>`
 * loads the log without virtualization (timed: the full load), then runs the
 * virtualization step alone on the loaded messages (timed, nothing cached:
 * the decisions, the tokenizer's load when a result needs it, the stubs), and
 * prints `{"load", "step", "results", "stubs", "tokenizer"}` on one line.
 */
import { createRequire } from "node:module";
import { ContextService } from "../dist/index.js";
import { listOf, virtualizeMessages } from "../dist/render/stubs.js";

const [path] = process.argv.slice(2);
if (path === undefined) {
	console.error("usage: node --expose-gc bench/virtualize-child.js <session.jsonl>");
	process.exit(2);
}
const service = new ContextService();
const set = service.templateSet(); // compiled once per process, as in the daemon; not timed
globalThis.gc?.();
let start = performance.now();
const bundle = service.loadSync(path, { virtualize: false });
const load = performance.now() - start;
start = performance.now();
const stubs = virtualizeMessages(listOf(bundle.messages, bundle.entryIds), set);
const step = performance.now() - start;
// The tokenizer is loaded through createRequire: it shows in the shared CommonJS cache.
const cache = createRequire(import.meta.url).cache;
console.log(
	JSON.stringify({
		load,
		step,
		results: bundle.messages.filter((m) => m.role === "toolResult").length,
		stubs: stubs.length,
		tokenizer: Object.keys(cache).some((f) => f.includes("gpt-tokenizer")),
	}),
);

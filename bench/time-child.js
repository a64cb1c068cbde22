/**
 * One timed run in a fresh process: `node --expose-gc bench/time-child.js <fn> <path>`
 * prints the milliseconds of `fn` (buf, str or load) on one line. Big logs are
 * timed this way so that no run inherits the heap an earlier one grew: in one
 * process, a second load of a 600 MB log runs on a fragmented, oversized heap
 * and takes noticeably longer than the first, floors and loads alike.
 */
import { ContextService } from "../dist/index.js";
import { bufferFloor, stringFloor } from "./measure.js";

const [fn, path] = process.argv.slice(2);
const fns = {
	buf: () => bufferFloor(path),
	str: () => stringFloor(path),
	load: () => new ContextService().loadSync(path),
};
const run = fns[fn];
if (run === undefined || path === undefined) {
	console.error("usage: node --expose-gc bench/time-child.js buf|str|load <session.jsonl>");
	process.exit(2);
}
new ContextService().templateSet(); // compiled once per process, as in the daemon; not timed
globalThis.gc?.();
const start = performance.now();
const kept = run();
const ms = performance.now() - start;
if (kept === undefined) throw new Error("a timed function must return what it built");
console.log(JSON.stringify({ ms }));

/**
 * One cold tokenizer in a fresh process, for bench/tokenizer.js:
 * `node bench/tokenizer-child.js table|parse NAME TEXTS.json` loads the
 * counter of encoding NAME (from the build's table file, or parsed from
 * gpt-tokenizer's ranks file as when the table is missing or stale), then
 * counts every text of TEXTS.json once (the first count of a process: the
 * code not yet optimized, no piece merged yet), and prints
 * `{"load", "count", "tokens"}` (ms, ms, tokens) on one line.
 */
import { readFileSync } from "node:fs";
import { bpeCounter } from "../dist/text/bpe.js";
import { countInPieces } from "../dist/text/tokenizer.js";

const [mode, name, textsFile] = process.argv.slice(2);
if ((mode !== "table" && mode !== "parse") || name === undefined || textsFile === undefined) {
	console.error("usage: node bench/tokenizer-child.js table|parse o200k|cl100k TEXTS.json");
	process.exit(2);
}
const texts = JSON.parse(readFileSync(textsFile, "utf8"));
const start = performance.now();
const count = bpeCounter(name, mode === "table" ? undefined : "/nonexistent/no-table.bin");
const load = performance.now() - start;
const counting = performance.now();
let tokens = 0;
for (const text of texts) tokens += countInPieces(text, count);
console.log(JSON.stringify({ load, count: performance.now() - counting, tokens }));

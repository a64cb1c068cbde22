/**
 * The o200k and cl100k counters on a cold process (part of `npm run bench`;
 * on its own: `npm run build && node bench/tokenizer.js`): each measurement
 * a fresh process (bench/tokenizer-child.js), the kinds in interleaved
 * rounds, medians:
 *  - the load from the build's table file (dist/tokenizer/), and from
 *    gpt-tokenizer's ranks file parsed (what a process pays when the table
 *    is missing or stale);
 *  - the first count of the texts of real sessions (every string of at least
 *    32 characters in the messages' content, images and thinking signatures left out,
 *    of the fresh Claude Code corpus,
 *    ../shared/corpora/importers/fresh-2026-12-04/claude-code/, or of the
 *    test fixtures when it is absent), in the process that just loaded.
 * Usage: npm run build && node bench/tokenizer.js
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, median, table } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = join(ROOT, "bench/tokenizer-child.js");
const FRESH = join(ROOT, "../shared/corpora/importers/fresh-2026-12-04/claude-code");
const FIXTURES = join(ROOT, "test/fixtures");
const OUT = join(ROOT, "bench/out");
const ROUNDS = 9;

/** Every distinct string of 32 characters or more in the messages' content of `.jsonl` files under `folder`. */
function sessionTexts(folder) {
	const texts = new Set();
	const walk = (value) => {
		if (typeof value === "string") {
			if (value.length >= 32) texts.add(value);
		} else if (value !== null && typeof value === "object" && value.type !== "image") {
			for (const [key, v] of Object.entries(value)) if (key !== "signature") walk(v);
		}
	};
	for (const file of readdirSync(folder, { recursive: true }).map(String)) {
		if (!file.endsWith(".jsonl")) continue;
		for (const line of readFileSync(join(folder, file), "utf8").split("\n")) {
			try {
				walk(JSON.parse(line).message?.content);
			} catch {
				// a torn or commented line: no text of it counted
			}
		}
	}
	return [...texts];
}

function run(mode, name, textsFile) {
	const child = spawnSync(process.execPath, [CHILD, mode, name, textsFile], { encoding: "utf8" });
	if (child.status !== 0) throw new Error(`tokenizer-child ${mode} ${name}: ${child.stderr}`);
	return JSON.parse(child.stdout);
}

const source = existsSync(FRESH) ? FRESH : FIXTURES;
const texts = sessionTexts(source);
const characters = texts.reduce((sum, t) => sum + t.length, 0);
mkdirSync(OUT, { recursive: true });
const textsFile = join(OUT, "tokenizer-texts.json");
writeFileSync(textsFile, JSON.stringify(texts));

const rows = [];
for (const name of ["o200k", "cl100k"]) {
	process.stderr.write(`… ${name}: table and parse, ${ROUNDS} interleaved rounds\n`);
	const times = { table: [], parse: [] };
	for (let i = 0; i < ROUNDS; i++) {
		for (const mode of i % 2 === 0 ? ["table", "parse"] : ["parse", "table"]) {
			times[mode].push(run(mode, name, textsFile));
		}
	}
	const tokens = new Set([...times.table, ...times.parse].map((r) => r.tokens));
	if (tokens.size !== 1) throw new Error(`${name}: the table and the parsed ranks count apart`);
	for (const mode of ["table", "parse"]) {
		rows.push([
			`${name}, ${mode === "table" ? "table file" : "ranks file parsed"}`,
			`${fmt(median(times[mode].map((r) => r.load)))} ms`,
			`${fmt(median(times[mode].map((r) => r.count)))} ms`,
			String(times[mode][0].tokens),
		]);
	}
}
console.log(
	`\ntokenizer on a cold process: load, then a first count of ${texts.length} texts (${characters} characters, from ${source === FRESH ? "the fresh Claude Code corpus" : "the test fixtures"}); fresh processes, median of ${ROUNDS} interleaved rounds`,
);
console.log(table(["counter", "load", "first count", "tokens"], rows));

/**
 * The language server's keystroke latency: `lsp --stdio` as a child process
 * (the built CLI), the newest bundled set's harness opened, then 200 edits,
 * each one character typed into its body (unsaved, in memory only), timed
 * from the didChange's write to the publishDiagnostics of the harness that
 * answers it; median and p95 against the 50 ms target. Beside them, in this
 * process: one uncached check of the same set (`checkTemplateSet`), the work
 * a keystroke cannot avoid, for the server's share. Then the budgets: a
 * budget of 1 token added, timed until its over_budget error arrives (the
 * server waits for typing to pause before rendering the fixtures).
 * Usage: npm run build && node bench/lsp.js
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
	createMessageConnection,
	StreamMessageReader,
	StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { checkTemplateSet } from "../dist/templates/compile.js";
import { readTemplateSets } from "../dist/templates/load.js";
import { fmt, median } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EDITS = 200;
const TARGET_MS = 50;

const percentile = (values, p) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const sets = readTemplateSets(join(ROOT, "templates"));
const [version, source] = [...sets].at(-1);
const file = join(source.dir, "harness.hbs");
const uri = pathToFileURL(file).href;
const original = readFileSync(file, "utf8");

const child = spawn(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), "lsp", "--stdio"], {
	cwd: ROOT,
	stdio: ["pipe", "pipe", "inherit"],
});
const connection = createMessageConnection(
	new StreamMessageReader(child.stdout),
	new StreamMessageWriter(child.stdin),
);
let waiting;
connection.onNotification("textDocument/publishDiagnostics", (p) => {
	if (p.uri === uri && waiting?.accept(p.diagnostics)) {
		const w = waiting;
		waiting = undefined;
		w.done(performance.now());
	}
});
connection.onNotification("window/logMessage", () => {});
connection.listen();
const published = (accept = () => true) =>
	new Promise((done) => {
		waiting = { accept, done };
	});

await connection.sendRequest("initialize", { processId: null, rootUri: null, capabilities: {} });
await connection.sendNotification("initialized", {});
let first = published();
await connection.sendNotification("textDocument/didOpen", {
	textDocument: { uri, languageId: "handlebars", version: 1, text: original },
});
await first;

// Each keystroke types one more letter at the end of the body's last line.
const times = [];
let text = original.replace(/\n*$/, "\n");
for (let i = 0; i < EDITS; i++) {
	text += "abcdefghij"[i % 10];
	first = published();
	const start = performance.now();
	await connection.sendNotification("textDocument/didChange", {
		textDocument: { uri, version: i + 2 },
		contentChanges: [{ text }],
	});
	times.push((await first) - start);
}

// The floor of a keystroke: one uncached check of the set, in this process.
const floor = [];
for (let i = 0; i < 50; i++) {
	const start = performance.now();
	try {
		checkTemplateSet(source);
	} catch {}
	floor.push(performance.now() - start);
}

const budgeted = original.replace(/^version:/m, "budget:\n  tokens: 1\nversion:");
first = published((ds) => ds.some((d) => d.code === "over_budget"));
const start = performance.now();
await connection.sendNotification("textDocument/didChange", {
	textDocument: { uri, version: EDITS + 2 },
	contentChanges: [{ text: budgeted }],
});
const budgetMs = (await first) - start;

await connection.sendRequest("shutdown");
await connection.sendNotification("exit");

const [mid, p95] = [median(times), percentile(times, 95)];
console.log(`lsp: ${EDITS} keystrokes in ${version}/harness.hbs, didChange → publishDiagnostics`);
console.log(`  median ${fmt(mid)} ms, p95 ${fmt(p95)} ms, max ${fmt(Math.max(...times))} ms`);
console.log(`  one uncached set check in process: median ${fmt(median(floor))} ms`);
console.log(
	`  ratio median keystroke / set check: ${fmt(mid / median(floor))}; p95 vs ${TARGET_MS} ms target: ${p95 <= TARGET_MS ? "PASS" : "FAIL"}`,
);
console.log(
	`  budgets: over_budget published ${fmt(budgetMs)} ms after the edit (typing pause included)`,
);

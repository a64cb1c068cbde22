#!/usr/bin/env node
/**
 * The size distribution of the tool results in session logs, in o200k tokens,
 * and what the newest template set's virtualization saves on each log's
 * context: the numbers behind the shipped threshold.
 *
 *   npm run build && node scripts/tool-result-sizes.js LOG.jsonl… [--thresholds 1000,2000,4000]
 *
 * Every tool result of every file counts (all branches); the context totals
 * are those of each log's active branch, as `inspect` measures them.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { measureLoaded, measuringService } from "../dist/measure/session.js";
import { loadTokenizerSync } from "../dist/text/tokenizer.js";

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: { thresholds: { type: "string", default: "1000,2000,4000" } },
});
if (positionals.length === 0) {
	console.error("usage: node scripts/tool-result-sizes.js LOG.jsonl… [--thresholds 1000,2000,4000]");
	process.exit(2);
}
const thresholds = values.thresholds.split(",").map(Number);
const tokenizer = loadTokenizerSync("o200k");
const num = (n) => n.toLocaleString("en-US");
const pct = (part, whole) => `${whole === 0 ? 0 : Math.round((part / whole) * 100)}%`;

/** The text of a result as virtualization reads it: its text blocks joined by a line break. */
function textOf(content) {
	if (typeof content === "string") return { text: content, images: 0 };
	const texts = [];
	let images = 0;
	for (const block of Array.isArray(content) ? content : []) {
		if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
		else if (block?.type === "image") images++;
	}
	return { text: texts.join("\n"), images };
}

const sizes = [];
let images = 0;
for (const file of positionals) {
	for (const line of readFileSync(file, "utf8").split("\n")) {
		if (!line.includes('"toolResult"')) continue;
		let entry;
		try {
			entry = JSON.parse(line);
		} catch {
			continue;
		}
		const message = entry.message ?? entry;
		if (message?.role !== "toolResult") continue;
		const { text, images: n } = textOf(message.content);
		images += n;
		sizes.push(tokenizer.count(text));
	}
}
sizes.sort((a, b) => a - b);
const total = sizes.reduce((a, b) => a + b, 0);
const at = (q) => sizes[Math.min(sizes.length - 1, Math.ceil(q * sizes.length) - 1)] ?? 0;

console.log(`${num(sizes.length)} tool results in ${positionals.length} logs, ${num(total)} o200k tokens, ${num(images)} images`);
console.log(
	["p50", "p75", "p90", "p95", "p99"].map((p, i) => `${p} ${num(at([0.5, 0.75, 0.9, 0.95, 0.99][i]))}`).join(" · ") +
		` · max ${num(sizes.at(-1) ?? 0)}`,
);
for (const t of thresholds) {
	const over = sizes.filter((s) => s > t);
	const tokens = over.reduce((a, b) => a + b, 0);
	console.log(
		`over ${num(t)}: ${num(over.length)} results (${pct(over.length, sizes.length)}), ${num(tokens)} tokens (${pct(tokens, total)} of tool-result tokens)`,
	);
}

console.log("\ncontext of the active branch with the newest set (inspect's totals):");
const target = measuringService();
for (const file of positionals) {
	const { bundle, size } = measureLoaded(target, file, tokenizer);
	const v = size.virtualized;
	console.log(
		`${basename(file)}: ${num(v.before)} → ${num(size.total.tokens)} tokens, ${num(v.saved)} saved (${pct(v.saved, v.before)}), ${v.results} of ${bundle.messages.filter((m) => m.role === "toolResult").length} results as stubs`,
	);
}

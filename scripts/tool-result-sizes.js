#!/usr/bin/env node
/**
 * The size distribution of the tool results in session logs, in characters
 * and in o200k tokens, how many results (and how much of their size) lie
 * over each threshold in either unit, and what the newest template set's
 * virtualization saves on each log's context: the numbers behind the
 * shipped thresholds.
 *
 *   npm run build && node scripts/tool-result-sizes.js LOG.jsonl… [--thresholds 1000,2000,4000] [--chars 4000,8000,16000]
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
	options: {
		thresholds: { type: "string", default: "1000,2000,4000" },
		chars: { type: "string", default: "4000,8000,16000" },
	},
});
if (positionals.length === 0) {
	console.error("usage: node scripts/tool-result-sizes.js LOG.jsonl… [--thresholds 1000,2000,4000]");
	process.exit(2);
}
const thresholds = values.thresholds.split(",").map(Number);
const charThresholds = values.chars.split(",").map(Number);
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
		sizes.push({ tokens: tokenizer.count(text), chars: text.length });
	}
}
const tokensTotal = sizes.reduce((sum, r) => sum + r.tokens, 0);
const charsTotal = sizes.reduce((sum, r) => sum + r.chars, 0);
const quantiles = [0.5, 0.75, 0.9, 0.95, 0.99];
const percentiles = (unit) => {
	const sorted = sizes.map((r) => r[unit]).sort((x, y) => x - y);
	const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
	return `${quantiles.map((q) => `p${Math.round(q * 100)} ${num(at(q))}`).join(" · ")} · max ${num(sorted.at(-1) ?? 0)}`;
};

console.log(
	`${num(sizes.length)} tool results in ${positionals.length} logs, ${num(charsTotal)} characters, ${num(tokensTotal)} o200k tokens, ${num(images)} images`,
);
console.log(`characters: ${percentiles("chars")}`);
console.log(`tokens:     ${percentiles("tokens")}`);
const over = (unit, t) => {
	const results = sizes.filter((r) => r[unit] > t);
	const tokens = results.reduce((sum, r) => sum + r.tokens, 0);
	const chars = results.reduce((sum, r) => sum + r.chars, 0);
	return `over ${num(t)} ${unit}: ${num(results.length)} results (${pct(results.length, sizes.length)}), ${num(chars)} chars (${pct(chars, charsTotal)}), ${num(tokens)} tokens (${pct(tokens, tokensTotal)} of tool-result tokens)`;
};
for (const t of thresholds) console.log(over("tokens", t));
for (const t of charThresholds) console.log(over("chars", t));

console.log("\ncontext of the active branch with the newest set (inspect's totals):");
const target = measuringService();
for (const file of positionals) {
	const { bundle, size } = measureLoaded(target, file, tokenizer);
	const v = size.virtualized;
	console.log(
		`${basename(file)}: ${num(v.before)} → ${num(size.total.tokens)} tokens, ${num(v.saved)} saved (${pct(v.saved, v.before)}), ${v.results} of ${bundle.messages.filter((m) => m.role === "toolResult").length} results as stubs`,
	);
}

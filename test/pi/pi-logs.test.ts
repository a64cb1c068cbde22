/**
 * Optional: real session logs written by pi, when a checkout has them beside
 * the project (`../shared/fixtures/pi/`). Skipped cleanly when absent. The
 * expected context is computed here independently, straight from the lines.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";

const DIR = join(import.meta.dirname, "..", "../../shared/fixtures/pi");
const logs = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith(".jsonl")) : [];

/** The roles and timestamps a version-1 log's latest compaction and tail imply. */
function expected(text: string): { role: string; timestamp?: unknown }[] {
	const lines = text.split("\n");
	const entries = lines
		.map((line, i) => ({ number: i + 1, line }))
		.filter(({ line, number }) => number > 1 && line.trim() !== "")
		.map(({ number, line }) => ({ number, value: JSON.parse(line) }));
	const compactions = entries.filter((e) => e.value.type === "compaction");
	const last = compactions.at(-1);
	const firstKept = last === undefined ? 0 : last.value.firstKeptEntryIndex + 1;
	const inContext = (n: number) =>
		last === undefined || (n >= firstKept && n < last.number) || n > last.number;
	const out: { role: string; timestamp?: unknown }[] = last === undefined ? [] : [{ role: "user" }];
	for (const { number, value } of entries) {
		if (value.type !== "message" || !inContext(number)) continue;
		const m = value.message;
		if (m.role === "bashExecution" && m.excludeFromContext === true) continue;
		const role = ["user", "assistant", "toolResult"].includes(m.role) ? m.role : "user";
		out.push({ role, timestamp: m.timestamp });
	}
	return out;
}

describe.skipIf(logs.length === 0)("real pi logs", () => {
	for (const name of logs) {
		it(`${name}: loads, and its messages are the latest compaction's summary and kept tail`, () => {
			const path = join(DIR, name);
			const service = new ContextService();
			const bundle = service.loadSync(path);
			const llm = service.convertToLlm(bundle);
			const want = expected(readFileSync(path, "utf8"));
			expect(llm.map((m) => m.role)).toEqual(want.map((w) => w.role));
			expect(llm.slice(want[0]?.timestamp === undefined ? 1 : 0).map((m) => m.timestamp)).toEqual(
				want.slice(want[0]?.timestamp === undefined ? 1 : 0).map((w) => w.timestamp),
			);
			expect(bundle.meta.diagnostics).toEqual([]);
		});
	}
});

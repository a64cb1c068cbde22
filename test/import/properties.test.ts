/**
 * The importer's property: any valid generated Claude Code or Codex source
 * gives a log that loads under --strict, with every record accounted for
 * (mapped, kept as custom, or warned) and the same bytes on a second run,
 * and the values a reader gets in its place are those its lines parse to.
 * The generators' reach is asserted: every record kind appears in every run
 * (the first example of each property holds them all, whatever the seed).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sumCounts } from "../../src/import/accounting.js";
import { importSession } from "../../src/import/convert.js";
import { ContextService } from "../../src/service/context-service.js";
import { tempDir } from "../support/temp.js";
import {
	CLAUDE_STEPS,
	CODEX_STEPS,
	claudeSource,
	claudeSteps,
	codexSource,
	codexSteps,
	type Source,
} from "./generate.js";

const runs = () => Number(process.env.FUZZ_RUNS ?? 100);

function check(source: Source, dir: string, reached: Map<string, number>): void {
	for (const kind of source.kinds) reached.set(kind, (reached.get(kind) ?? 0) + 1);
	const result = importSession(Buffer.from(source.text), "gen.jsonl");
	const sum = sumCounts(result.counts);
	expect(sum.mapped + sum.custom + sum.warned).toBe(source.records);
	expect(importSession(Buffer.from(source.text), "gen.jsonl").text).toBe(result.text);
	// What a reader reads instead of the text: the values its lines parse to, key for key.
	const [head, ...lines] = result.text.split("\n").slice(0, -1);
	const values = result.values?.();
	expect(values?.header).toStrictEqual(JSON.parse(head as string));
	expect(values?.entries).toStrictEqual(lines.map((l) => JSON.parse(l)));
	expect(values?.entries.map((e) => JSON.stringify(e))).toEqual(lines);
	const file = join(dir, "gen.jsonl");
	writeFileSync(file, result.text);
	const bundle = new ContextService({ strict: true }).loadSync(file);
	expect(bundle.meta.entryCount).toBe(result.text.split("\n").length - 2);
	// every call on the branch has its result on the branch (parallel calls included)
	const calls = bundle.messages.flatMap((m) =>
		m.role === "assistant" && Array.isArray(m.content)
			? m.content.flatMap((b) =>
					b.type === "toolCall" ? [(b as unknown as { id: string }).id] : [],
				)
			: [],
	);
	const results = new Set(
		bundle.messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])),
	);
	for (const id of calls) expect(results.has(id), id).toBe(true);
}

describe("import property", () => {
	it("any valid Claude Code transcript gives a --strict log with every record accounted for", () => {
		const dir = tempDir("theway-import-prop-");
		const reached = new Map<string, number>();
		const every = CLAUDE_STEPS.flatMap((kind) => [
			{ kind, calls: 3, split: 2 },
			{ kind, calls: 1, split: 1 },
		]);
		fc.assert(
			fc.property(claudeSteps, (steps) => check(claudeSource(steps), dir, reached)),
			{ numRuns: runs(), examples: [[every]] },
		);
		for (const kind of [
			"prompt",
			"rewind",
			"response",
			"response (split)",
			"result",
			"parallel result",
			"attachment",
			"bookkeeping",
			"title",
			"compact boundary",
			"compact summary",
			"sidechain",
			"unknown",
		]) {
			expect(reached.get(kind) ?? 0, kind).toBeGreaterThan(0);
		}
	});

	it("any valid Codex rollout, either layout, gives a --strict log with every record accounted for", () => {
		const dir = tempDir("theway-import-prop-");
		const reached = new Map<string, number>();
		const every = CODEX_STEPS.flatMap((kind) => [
			{ kind, n: 1 },
			{ kind, n: 2 },
		]);
		fc.assert(
			fc.property(codexSteps, fc.boolean(), (steps, legacy) =>
				check(codexSource(steps, legacy), dir, reached),
			),
			{
				numRuns: runs(),
				examples: [
					[every, false],
					[every, true],
				],
			},
		);
		const kinds = [
			"session_meta",
			"legacy header",
			"user",
			"assistant",
			"reasoning",
			"function_call",
			"function_call_output",
			"custom_tool_call",
			"custom_tool_call_output",
			"local_shell_call",
			"local_shell output",
			"developer",
			"environment_context",
			"turn_context",
			"compacted",
			"encrypted compaction",
			"thread_rolled_back",
			"event",
			"unknown",
			"token_count",
		];
		for (const kind of kinds) expect(reached.get(kind) ?? 0, kind).toBeGreaterThan(0);
	});
});

/**
 * The eval report for people (text and Markdown): sessions in the report's
 * own order, the JSON's, whatever their calls' indices; each flip says which
 * set made which choice.
 */
import { describe, expect, it } from "vitest";
import { formatMarkdown, formatText } from "../../src/eval/format.js";
import { formatJunit } from "../../src/eval/junit.js";
import type { EvalReport, EvalRun } from "../../src/eval/report.js";

const run = (file: string, index: number, set: string, tool: string): EvalRun => ({
	file,
	index,
	entryId: `${file}-${index}`,
	set,
	sample: 0,
	answer: {
		text: "",
		toolCalls: [{ name: tool, arguments: {} }],
		stopReason: "tool_use",
		usage: { input: 1, cacheRead: 0, cacheWrite: 0, output: 1 },
	},
	recorded: { text: "", toolCalls: [{ name: "read", arguments: {} }] },
	sameAsRecorded: null,
	assertions: [],
	cost: 0,
	latencyMs: 1,
	fromCache: false,
	error: null,
});

/** Session z's calls come first in the report but have the higher indices. */
function report(): EvalReport {
	const runs = [
		run("z.jsonl", 9, "vA", "read"),
		run("a.jsonl", 0, "vA", "read"),
		run("a.jsonl", 1, "vA", "grep"),
	];
	const vsRuns = [
		run("z.jsonl", 9, "vB", "bash"),
		run("a.jsonl", 0, "vB", "read"),
		run("a.jsonl", 1, "vB", "grep"),
	];
	return {
		model: "openai:m",
		set: "vA",
		seed: 1,
		runs,
		vs: { set: "vB", runs: vsRuns },
		failed: [],
		summary: {
			runs: 6,
			errors: 0,
			fromCache: 0,
			sameTool: 4,
			assertions: { passed: 0, failed: 0 },
			cost: 0,
			flips: [{ file: "z.jsonl", index: 9, sample: 0, a: "read", b: "bash" }],
			notSent: 0,
		},
		stopped: false,
	};
}

describe("the eval report for people", () => {
	it("lists sessions in the report's order, each one's runs by call, the first set's before the second's", () => {
		const text = formatText(report(), false);
		expect(text.indexOf("═══ z.jsonl")).toBeLessThan(text.indexOf("═══ a.jsonl"));
		const rows = text.split("\n").filter((l) => /^ {2}\d/.test(l));
		expect(rows.map((l) => l.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual([
			"9 vA",
			"9 vB",
			"0 vA",
			"0 vB",
			"1 vA",
			"1 vB",
		]);
		const md = formatMarkdown(report());
		expect(md.indexOf("### z.jsonl")).toBeLessThan(md.indexOf("### a.jsonl"));
	});

	it("says which set chose what in a flip", () => {
		expect(formatText(report(), false)).toContain(
			"flip: z.jsonl call 9 sample 0: read (vA) → bash (vB)",
		);
		expect(formatMarkdown(report())).toContain("| session | call | sample | vA | vB |");
	});

	it("in JUnit, names a suite of sessions' own sets so, and leaves out one with no case", () => {
		const own = { ...report(), set: null };
		expect(formatJunit(own)).toContain(`<testsuite name="each session's own set" tests="3"`);
		const { vs: _, ...first } = report();
		const none = { ...first, runs: [], failed: [{ file: "x.jsonl", error: "bad" }] };
		const xml = formatJunit(none);
		expect(xml.match(/<testsuite /g)).toHaveLength(1);
		expect(xml).toContain('<testsuite name="x.jsonl" tests="1" failures="0" errors="1">');
	});
});

/**
 * `diff`'s short forms: `--stat` (a line a changed session, then the
 * summary), and a tool result gone from stub to whole or back shown as one
 * line unless `--full`, for one session and over a corpus.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { runCli } from "../support/cli.js";
import { addLine, BUNDLED_SET, ROOT, STUB_FILE, twoSets } from "../support/template-sets.js";

const EXAMPLES = join(ROOT, "test/fixtures/examples");
const VIRTUALIZED = join(ROOT, "test/fixtures/sessions/virtualized.jsonl");
const ADDED = "Check every claim twice.";
const MARKER = parseTemplateFile(readFileSync(join(BUNDLED_SET, STUB_FILE), "utf8"), STUB_FILE).meta
	.marker as string;

/** v1 the newest bundled set, v2 the same with a line added to its harness and no stub template (every tool result whole). */
const templates = twoSets({ "harness.hbs": (t) => addLine(t, ADDED), [STUB_FILE]: null });
const diff = (...argv: string[]) =>
	runCli(["diff", ...argv, "--templates", templates, "--from", "v1", "--to", "v2", "--quiet"]);

/** The stubs the bundled set sends in the virtualized fixture. */
async function stubCount(): Promise<number> {
	const run = await diff(VIRTUALIZED, "--format", "json");
	const json = JSON.parse(run.stdout) as {
		sessions: { virtualized: { from: { results: number } } }[];
	};
	return json.sessions[0]?.virtualized.from.results ?? 0;
}

describe("diff: a tool result gone from stub to whole", () => {
	it("is one line for one session, its text only with --full", async () => {
		const stubs = await stubCount();
		expect(stubs).toBeGreaterThan(0);
		const short = await diff(VIRTUALIZED);
		expect(short.code, short.stderr).toBe(0);
		const heads = short.stdout
			.split("\n")
			.filter((l) => l.startsWith("──── ") && l.includes("a tool result, stub → whole"));
		expect(heads).toHaveLength(stubs);
		for (const head of heads)
			expect(head).toMatch(/^──── message \d+ .*: \d+ → \d+ tokens \([+−][\d,]+\)$/);
		expect(short.stdout).not.toContain(`-${MARKER}`);
		expect(short.stdout).toContain(`+${ADDED}`);
		const full = await diff(VIRTUALIZED, "--full");
		expect(full.stdout.split(`-${MARKER}`)).toHaveLength(stubs + 1);
		expect(full.stdout.split("\n").length).toBeGreaterThan(short.stdout.split("\n").length + stubs);
	});

	it("is one heading line over a corpus, after the shared hunks, its text only with --full", async () => {
		const stubs = await stubCount();
		const short = await diff(EXAMPLES, VIRTUALIZED);
		expect(short.code, short.stderr).toBe(0);
		const lines = short.stdout.split("\n");
		const heads = lines.filter((l) => /^═══ a tool result, stub → whole: /.test(l));
		expect(heads).toHaveLength(stubs);
		expect(lines.indexOf(heads[0] as string)).toBeGreaterThan(lines.indexOf(`+${ADDED}`));
		expect(short.stdout).not.toContain(`-${MARKER}`);
		const full = await diff(EXAMPLES, VIRTUALIZED, "--full");
		expect(full.stdout.split(`-${MARKER}`)).toHaveLength(stubs + 1);
	});
});

describe("diff --stat", () => {
	it("prints a line a changed session, then the summary, and no text", async () => {
		const stubs = await stubCount();
		const run = await diff(EXAMPLES, VIRTUALIZED, "--stat");
		expect(run.code, run.stderr).toBe(0);
		const json = JSON.parse((await diff(EXAMPLES, VIRTUALIZED, "--format", "json")).stdout) as {
			sessions: { file: string; changed: unknown[] }[];
			summary: { changed: number };
		};
		const [table, summary] = run.stdout.split("\n\n") as [string, string];
		const rows = table.split("\n");
		expect(rows).toHaveLength(json.summary.changed);
		for (const row of rows) expect(row).toMatch(/^ \S.* \| harness.* \| +[+−][\d,]+ tokens$/);
		const virtualized = rows.find((r) => r.includes("virtualized.jsonl")) as string;
		expect(virtualized).toContain(`${stubs} result${stubs === 1 ? "" : "s"} stub → whole`);
		expect(run.stdout).not.toContain(ADDED);
		expect(summary).toMatch(
			new RegExp(`^${json.sessions.length} sessions: ${json.summary.changed} changed`),
		);
		const full = await diff(EXAMPLES, VIRTUALIZED);
		expect(full.stdout.endsWith(summary)).toBe(true);
	});

	it("is for the text output, and does not go with --full", async () => {
		const json = await diff(EXAMPLES, "--stat", "--format", "json");
		expect(json.code).toBe(2);
		expect(json.stderr).toContain("--stat shapes the text output");
		const both = await diff(EXAMPLES, "--stat", "--full");
		expect(both.code).toBe(2);
		expect(both.stderr).toMatch(/--stat.*--full|--full.*--stat/);
	});
});

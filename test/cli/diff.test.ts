/**
 * `theway-context diff`: two sets over the same sessions. Changed sections
 * and framings with their token deltas, the summary, --exit-code, the JSON
 * shape, a failing session among good ones, another templates folder as a
 * side, and the worker pool giving what one thread gives.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { formatGroups, groupHunks } from "../../src/measure/diff-groups.js";
import { summarize } from "../../src/measure/diff-report.js";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { runBuilt, runCli, runJson } from "../support/cli.js";
import { section } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { addLine, BUNDLED_SET, ROOT, templateSet, twoSets } from "../support/template-sets.js";

const EXAMPLES = join(ROOT, "test/fixtures/examples");
const count = (text: string, part: string) => text.split(part).length - 1;
const plain = { disallowedSpecial: new Set<string>() };

/** The line v2's harness adds. */
const ADDED = "Always.";
const MARKER = parseTemplateFile(
	readFileSync(join(BUNDLED_SET, "collapse-context.hbs"), "utf8"),
	"collapse-context.hbs",
).meta.marker as string;
const EDITED_MARKER = `${MARKER.slice(0, -1)}, in brief]`;
/** v1 and v2: a line added to v2's harness, the collapse framing's marker edited. */
const templates = twoSets({
	"harness.hbs": (t) => addLine(t, ADDED),
	"collapse-context.hbs": (t) => t.split(MARKER).join(EDITED_MARKER),
});
/** The sides most cases compare: v1 to v2 of {@link templates}. */
const V1_V2 = ["--templates", templates, "--from", "v1", "--to", "v2"];

const diff = (...argv: string[]) => runCli(["diff", ...argv]);
const diffJson = (...argv: string[]) => runJson(["diff", ...argv]);

describe("diff between two sets", () => {
	it("lists each changed section and framing with both token counts", async () => {
		const { code, json } = await diffJson(EXAMPLES, ...V1_V2);
		expect(code).toBe(0);
		const child = json.sessions.find((s: { file: string }) =>
			s.file.endsWith("2-collapse-child.jsonl"),
		);
		const normal = json.sessions.find((s: { file: string }) => s.file.endsWith("1-normal.jsonl"));
		// Every session has a harness; only the collapsed ones carry the collapse framing.
		expect(normal.changed.map((c: { section: string }) => c.section)).toEqual(["harness"]);
		expect(child.changed.map((c: { section: string }) => c.section)).toEqual([
			"harness",
			"message 0",
		]);
		const harness = child.changed[0];
		const rendered = async (set: string) => {
			const argv = ["render", join(EXAMPLES, "2-collapse-child.jsonl"), "--templates", templates];
			const out = await runCli([...argv, "--template-version", set, "--format", "json"]);
			const prompt = JSON.parse(out.stdout).systemPrompt as string;
			return `<harness>\n${section(prompt, "harness")}\n</harness>`;
		};
		expect(harness.tokensFrom).toBe(countTokens(await rendered("v1"), plain));
		expect(harness.tokensTo).toBe(countTokens(await rendered("v2"), plain));
		expect(await rendered("v2")).toContain(`\n${ADDED}\n</harness>`);
		expect(json.summary).toMatchObject({ sessions: 6, changed: 6, unchanged: 0, failed: 0 });
	});

	it("prints unified diffs of the changed text, and the summary", async () => {
		const result = await diff(join(EXAMPLES, "1-normal.jsonl"), ...V1_V2);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(`\n+${ADDED}\n`);
		expect(result.stdout).not.toMatch(/^-/m); // a line added, none removed
		expect(result.stdout).toMatch(/^──── harness: (\d+) → (\d+) tokens \(\+\d+\)$/m);
		expect(result.stdout).toMatch(/^1 session: 1 changed, 0 unchanged$/m);
		expect(result.stdout).not.toContain("\u001b["); // no colours off a terminal
	});

	it("--exit-code: 1 when anything changed, 0 when nothing did", async () => {
		const file = join(EXAMPLES, "1-normal.jsonl");
		const changed = await diff(file, ...V1_V2, "--exit-code");
		expect(changed.code).toBe(1);
		const same = await diff(
			file,
			"--templates",
			templates,
			"--from",
			"v1",
			"--to",
			"v1",
			"--exit-code",
		);
		expect(same.code).toBe(0);
		expect(same.stdout).toMatch(/^1 session: 0 changed, 1 unchanged$/m);
	});

	it("takes another templates folder as a side", async () => {
		const { json } = await diffJson(
			join(EXAMPLES, "1-normal.jsonl"),
			"--from",
			join(templates, "v2"),
			"--to",
			BUNDLED_SET,
		);
		expect(json.sessions[0].changed.map((c: { section: string }) => c.section)).toEqual([
			"harness",
		]);
		const { json: same } = await diffJson(
			join(EXAMPLES, "1-normal.jsonl"),
			"--from",
			join(templates, "v1"),
			"--to",
			BUNDLED_SET,
		);
		expect(same.summary.unchanged).toBe(1);
	});
});

describe("diff over a corpus with a broken session", () => {
	const corpus = tempDir("theway-corpus-");
	cpSync(EXAMPLES, corpus, { recursive: true });
	mkdirSync(join(corpus, "nested"));
	writeFileSync(join(corpus, "nested", "broken.jsonl"), '{"type":"session"\n');

	it("reports the failing session with its location and compares the others (exit 1)", async () => {
		const { code, json } = await diffJson(corpus, ...V1_V2);
		expect(code).toBe(1);
		const broken = json.sessions.find((s: { file: string }) => s.file.endsWith("broken.jsonl"));
		expect(broken.error).toMatch(/broken\.jsonl:1(:\d+)?: /);
		expect(json.summary).toMatchObject({ sessions: 7, changed: 6, failed: 1 });
	});

	it("names the broken session's path once in its text error line", async () => {
		const result = await runCli(["diff", "nested/broken.jsonl", ...V1_V2], corpus);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^theway-context: nested\/broken\.jsonl:1(:\d+)?: error: /m);
		expect(count(result.stderr, "broken.jsonl")).toBe(1);
	});

	it.skipIf(!existsSync(join(ROOT, "dist/cli/diff-worker.js")))(
		"gives on worker threads what it gives on one",
		async () => {
			const { json: one } = await diffJson(corpus, ...V1_V2, "--jobs", "1");
			const out = await runBuilt(["diff", corpus, ...V1_V2, "--jobs", "3", "--format", "json"]);
			expect(out.code).toBe(1);
			expect(JSON.parse(out.stdout)).toEqual(one);
		},
	);
});

describe("diff of a damaged session", () => {
	const dir = tempDir("theway-diff-damaged-");
	const lines = readFileSync(join(EXAMPLES, "1-normal.jsonl"), "utf8").split("\n");
	lines.splice(2, 0, "not json");
	writeFileSync(join(dir, "damaged.jsonl"), lines.join("\n"));
	const damaged = join(dir, "damaged.jsonl");

	it("lists what the read skipped once on stderr and counts it in the summary; --quiet does not", async () => {
		const loud = await diff(damaged, ...V1_V2);
		expect(loud.code, loud.stderr).toBe(0);
		expect(count(loud.stderr, "damaged.jsonl:3")).toBe(1);
		expect(loud.stdout).toMatch(/1 session: 1 changed, 0 unchanged; 1 warning\n/);
		const quiet = await diff(damaged, ...V1_V2, "--quiet");
		expect(quiet.stderr).toBe("");
		const json = await diffJson(damaged, ...V1_V2, "--quiet");
		expect(json.json.sessions[0].warnings).toBe(1);
		expect(json.json.summary.warnings).toBe(1);
	});
});

describe("groupHunks and formatGroups", () => {
	it("name the messages a framing's hunk shows in, session by session", () => {
		const part = (index: number) => ({
			section: `message ${index}`,
			tokensFrom: 5,
			tokensTo: 6,
			diff: "@@ -1 +1 @@\n-a\n+b\n",
			framing: { from: "compaction-summary", to: "compaction-summary" },
		});
		const none = { results: 0, saved: 0 };
		const result = (file: string, indices: number[]) => ({
			file,
			changed: indices.map(part),
			tokenDelta: indices.length,
			unit: "o200k",
			virtualized: { from: none, to: none },
			warnings: [],
		});
		const groups = groupHunks([result("a.jsonl", [2, 5]), result("b.jsonl", [7])]);
		expect(groups).toHaveLength(1);
		expect(formatGroups(groups, false)).toContain(
			"a message framed by compaction-summary.hbs: +1 tokens, in 2 sessions (3 messages): a.jsonl (messages 2, 5), b.jsonl (message 7)\n",
		);
	});
});

describe("summarize", () => {
	it("gives min, median and max of the per-session token delta and the savings of stubs, failures apart", () => {
		const s = (from: number, to: number, error?: string) => ({
			file: "f",
			changed:
				to === from ? [] : [{ section: "harness", tokensFrom: from, tokensTo: to, diff: "" }],
			tokenDelta: to - from,
			unit: "o200k",
			virtualized: { from: { results: 0, saved: 0 }, to: { results: 1, saved: from * 100 } },
			warnings:
				from === 7
					? []
					: [{ severity: "warning" as const, code: "bad_json" as const, message: "m" }],
			...(error === undefined
				? { sets: { from: "v1", to: to === 30 ? "v3" : "v2" } }
				: { error, sets: { from: "v0", to: "v0" } }),
		});
		expect(summarize([s(10, 12), s(10, 10), s(10, 30), s(10, 9), s(7, 7, "bad")])).toEqual({
			sessions: 5,
			changed: 3,
			unchanged: 1,
			failed: 1,
			warnings: 4,
			sets: { from: ["v1"], to: ["v2", "v3"] },
			messages: [],
			tokenDelta: { min: -1, median: 1, max: 20, total: 21 },
			virtualized: { from: { results: 0, saved: 0 }, to: { results: 4, saved: 4000 } },
			units: ["o200k"],
		});
	});
});

describe("diff: usage", () => {
	it.each([
		[["diff", EXAMPLES], /--from is required/],
		[["diff", EXAMPLES, "--from", "v1"], /--to is required/],
		[["diff", EXAMPLES, "--from", "v1", "--to", "v999"], /--to v999: no template set "v999"/],
		[["diff", EXAMPLES, "--from", "./nowhere", "--to", "v1"], /--from .*nowhere: no such/],
		[["diff", "--from", "v1", "--to", "v1"], /missing <session.jsonl\|DIR>/],
		[["diff", EXAMPLES, "--from", "v1", "--to", "v1", "--jobs", "0"], /--jobs must be/],
	])("%j is wrong usage (exit 2)", async (argv, message) => {
		const result = await runCli(argv);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(message);
	});

	it("a side that does not build stops the diff once, with its located error, before any session", async () => {
		const broken = templateSet({ "tools.hbs": (t) => `${t}{{noSuchField}}\n` });
		const tools = join(broken, "v1", "tools.hbs");
		const result = await diff(EXAMPLES, "--from", BUNDLED_SET, "--to", broken);
		expect(result.code).toBe(1);
		expect(result.stderr.match(/noSuchField/g)?.length).toBeGreaterThan(0);
		expect(result.stderr).toContain(tools);
		// One error, not one per session: no session was compared.
		expect(result.stderr.match(/tools\.hbs:\d+:\d+/g)).toHaveLength(1);
		expect(result.stdout).toBe("");
	});
});

describe("diff on a terminal", () => {
	it("colours the diff lines and shows progress on stderr", async () => {
		const result = await runCli(["diff", EXAMPLES, ...V1_V2, "--jobs", "1"], ROOT, true);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(`\u001b[32m+${ADDED}\u001b[0m`);
		expect(result.stdout).toContain(`\u001b[31m-${MARKER}\u001b[0m`);
		expect(result.stdout).toContain(`\u001b[32m+${EDITED_MARKER}\u001b[0m`);
		expect(result.stderr).toContain("\rdiff: 6/6 sessions");
	});
});

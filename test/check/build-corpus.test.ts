/**
 * `build --corpus DIR`: the sets checked over real sessions with no
 * snapshots: pi logs, Claude Code and Codex files read as every corpus
 * command reads them, leniently (a damaged line or an unreadable file is a
 * warning, never an abort); exit 1 only for a template's error or a budget
 * gone over, each once with the sessions it hits.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/temp.js";
import { editLastLine, ROOT, templateSet } from "../support/template-sets.js";

const FIXTURES = join(ROOT, "test/fixtures");
const EXAMPLES = ["1-normal", "2-collapse-child", "6-custom-intro"];

/** A corpus: pi logs, a Claude Code and a Codex file, a damaged pi log and a file that is no session. */
function corpus(): string {
	const dir = tempDir("theway-build-corpus-");
	mkdirSync(join(dir, "pi"));
	for (const name of EXAMPLES)
		copyFileSync(join(FIXTURES, "examples", `${name}.jsonl`), join(dir, "pi", `${name}.jsonl`));
	copyFileSync(join(FIXTURES, "import/cc-tree.jsonl"), join(dir, "cc-tree.jsonl"));
	copyFileSync(join(FIXTURES, "import/codex-tools.jsonl"), join(dir, "codex-tools.jsonl"));
	const lines = readFileSync(join(FIXTURES, "examples/1-normal.jsonl"), "utf8").split("\n");
	lines.splice(2, 0, "{ a torn line");
	writeFileSync(join(dir, "pi", "damaged.jsonl"), lines.join("\n"));
	writeFileSync(join(dir, "notes.jsonl"), "these are notes, not a session log\n");
	return dir;
}
const SESSIONS = EXAMPLES.length + 4;

const build = (templates: string, dir: string, ...more: string[]) =>
	runCli(["build", "--corpus", dir, "--templates", templates, ...more]);

describe("build --corpus", () => {
	it("renders and measures every session, a damaged or unreadable one a warning: exit 0", async () => {
		const dir = corpus();
		const run = await build(templateSet(), dir);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(/^ok templates v1: \d+ templates checked$/m);
		expect(run.stdout).toMatch(
			new RegExp(
				`^${SESSIONS} sessions: ${SESSIONS - 1} rendered and measured, 1 left out \\(not readable\\); \\d+ read with repairs \\(\\d+ ms\\)$`,
				"m",
			),
		);
		expect(run.stderr).toMatch(/notes\.jsonl(:\d+)*: warning: left out: /);
		expect(run.stderr).toMatch(/damaged\.jsonl:3: warning: read with 1 line skipped or repaired/);
		expect(run.stderr).not.toContain("error");
	});

	it("a budget gone over: one error at the budget's line, with the sessions it hits; exit 1", async () => {
		const dir = corpus();
		const templates = templateSet({
			"harness.hbs": (t) => t.replace(/^---\n/, "---\nbudget: { tokens: 1 }\n"),
		});
		const run = await build(templates, dir);
		expect(run.code).toBe(1);
		const errors = run.stderr.split("\n").filter((l) => / error: /.test(l));
		expect(errors).toHaveLength(1);
		expect(errors[0]).toContain(
			`${join(templates, "v1", "harness.hbs")}:2:19: error: harness is over its budget of 1 tokens`,
		);
		expect(errors[0]).toMatch(
			new RegExp(`over it in ${SESSIONS - 1} sessions: .+ and ${SESSIONS - 4} more$`),
		);
		expect(run.stderr).toMatch(/^build: failed, 1 error$/m);
	});

	it("a set that does not build: its located error, and no session rendered; exit 1", async () => {
		const templates = templateSet({ "tools.hbs": (t) => editLastLine(t, "{{nosuchfield}}") });
		const run = await build(templates, corpus());
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`${join(templates, "v1", "tools.hbs")}:`);
		expect(run.stderr).toMatch(/nosuchfield/);
		expect(run.stdout).toContain(`${SESSIONS} sessions: none rendered, the sets do not build`);
	});

	it("takes --tools FILE for the sessions' tools, and refuses it, --update and --watch where they do not apply", async () => {
		const dir = corpus();
		const manifest = join(dir, "tools.yaml");
		writeFileSync(manifest, "- read\n- bash\n");
		const templates = templateSet();
		expect((await build(templates, dir, "--tools", manifest)).code).toBe(0);
		for (const wrong of [
			["build", "--tools", manifest],
			["build", "--corpus", dir, "--update"],
			["build", "--corpus", dir, "--watch"],
		]) {
			const run = await runCli([...wrong, "--templates", templates]);
			expect(run.code, wrong.join(" ")).toBe(2);
		}
	});
});

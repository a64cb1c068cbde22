/**
 * `diff` over a corpus: a hunk that many sessions show is printed once, with
 * their number and the first few names (the JSON stays per session); and a
 * side given as a git revision (`HEAD`, `HEAD~1`, `HEAD:templates`), read with
 * git into a temporary folder, the working tree untouched.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, diffExamples, gitRepo, projectCopy, rewrite } from "../support/project.js";
import { tempDir } from "../support/temp.js";
import { bumpedEdit, editLastLine, NEWEST, NEXT } from "../support/template-sets.js";

const EDIT = " Check every claim.";
const SESSIONS = readdirSync(join(import.meta.dirname, "../fixtures/examples")).filter((f) =>
	f.endsWith(".jsonl"),
);

/** A set's harness (the newest's by default) with its last line edited and its version bumped. */
function editHarness(dir: string, set = NEWEST): void {
	rewrite(join(dir, "templates", set, "harness.hbs"), (t) =>
		bumpedEdit(t, (text) => editLastLine(text, EDIT)),
	);
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("diff over many sessions", () => {
	it("prints a hunk the sessions share once, with their count and a few names", async () => {
		const dir = projectCopy();
		expect((await cli(dir, "new-set", "--templates", "templates")).code).toBe(0);
		editHarness(dir, NEXT);
		const run = await diffExamples(dir, NEWEST, NEXT, "--tokenizer", "o200k");
		expect(run.code, run.stderr).toBe(0);
		expect(count(run.stdout, `${EDIT}\n`)).toBe(1);
		expect(run.stdout).toMatch(
			new RegExp(
				`═══ harness: \\+\\d+ tokens, in ${SESSIONS.length} sessions: .+ and ${SESSIONS.length - 3} more\\n`,
			),
		);
		expect(run.stdout).toContain(`${SESSIONS.length} sessions: ${SESSIONS.length} changed`);
		const json = await diffExamples(dir, NEWEST, NEXT, "--tokenizer", "o200k", "--format", "json");
		const parsed = JSON.parse(json.stdout) as { sessions: { changed: { section: string }[] }[] };
		expect(parsed.sessions).toHaveLength(SESSIONS.length);
		for (const s of parsed.sessions) expect(s.changed.map((c) => c.section)).toContain("harness");
	});
});

describe("diff --from a git revision", () => {
	it("HEAD and HEAD:templates against the working tree's templates, which stay as they are", async () => {
		const dir = projectCopy();
		const git = gitRepo(dir);
		editHarness(dir);
		const edited = readFileSync(join(dir, "templates", NEWEST, "harness.hbs"), "utf8");
		for (const from of ["HEAD", "HEAD:templates", "main:./templates/"]) {
			const run = await cli(
				dir,
				"diff",
				"test/fixtures/examples/1-normal.jsonl",
				"--from",
				from,
				"--to",
				"templates",
				"--templates",
				"templates",
			);
			expect(run.code, `${from}: ${run.stderr}`).toBe(0);
			expect(run.stdout).toContain(`${EDIT}\n`);
			expect(run.stdout).toMatch(/^1 session: 1 changed, 0 unchanged$/m);
		}
		expect(readFileSync(join(dir, "templates", NEWEST, "harness.hbs"), "utf8")).toBe(edited);
		expect(git("status", "--porcelain").trim()).toBe(`M templates/${NEWEST}/harness.hbs`);
	});

	it("HEAD~1 against HEAD, from a folder below the repository's top", async () => {
		const dir = projectCopy();
		const git = gitRepo(dir);
		editHarness(dir);
		git("commit", "-q", "-am", "edit");
		const run = await cli(
			join(dir, "test"),
			"diff",
			"fixtures/examples",
			"--from",
			"HEAD~1",
			"--to",
			"HEAD",
			"--templates",
			"../templates",
		);
		expect(run.code, run.stderr).toBe(0);
		expect(count(run.stdout, `${EDIT}\n`)).toBe(1);
		expect(run.stdout).toContain(`in ${SESSIONS.length} sessions`);
	});

	it("reads REV (and REV:PATH outside a repository) from the templates folder's repository, wherever the command runs", async () => {
		const dir = projectCopy();
		gitRepo(dir);
		editHarness(dir);
		const elsewhere = tempDir("theway-elsewhere-");
		const run = await cli(
			elsewhere,
			"diff",
			join(dir, "test/fixtures/examples/1-normal.jsonl"),
			"--from",
			"HEAD",
			"--to",
			join(dir, "templates"),
			"--templates",
			join(dir, "templates"),
		);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(/^1 session: 1 changed, 0 unchanged$/m);
		// REV:PATH, outside any repository: a folder of the templates' own.
		const path = await cli(
			elsewhere,
			"diff",
			join(dir, "test/fixtures/examples/1-normal.jsonl"),
			"--from",
			"HEAD:templates",
			"--to",
			join(dir, "templates"),
			"--templates",
			join(dir, "templates"),
		);
		expect(path.code, path.stderr).toBe(0);
		expect(path.stdout).toBe(run.stdout);
	});

	it("says so when the revision does not exist, or there is no repository: wrong usage (exit 2)", async () => {
		const dir = projectCopy();
		const args = [
			"diff",
			"test/fixtures/examples",
			"--to",
			"templates",
			"--templates",
			"templates",
		];
		const outside = await cli(dir, ...args, "--from", "HEAD");
		expect(outside.code).toBe(2);
		expect(outside.stderr).toMatch(
			/^theway-context: error: --from HEAD: .* is not in a git repository/,
		);
		gitRepo(dir);
		// A temporary folder of this test's own: other files' revision reads run meanwhile.
		const temp = tempDir("revision-temp");
		const before = process.env.TMPDIR;
		process.env.TMPDIR = temp;
		try {
			for (const from of ["HEAD~5", "nope", "--output=x"]) {
				const run = await cli(dir, ...args, `--from=${from}`);
				expect(run.code, run.stderr).toBe(2);
				expect(run.stderr).toContain(`--from ${from}: no revision ${JSON.stringify(from)}`);
			}
			const noFolder = await cli(dir, ...args, "--from", "HEAD:elsewhere");
			expect(noFolder.code).toBe(2);
			expect(noFolder.stderr).toContain("no folder elsewhere at revision HEAD");
			// A revision read whole is removed once the diff has it.
			const read = await cli(dir, ...args, "--from", "HEAD");
			expect(read.code, read.stderr).toBe(0);
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
		}
		expect(readdirSync(temp)).toEqual([]);
	});

	it("a set this version cannot build at REV: named at REV:PATH once, with why; the other sessions still diff", async () => {
		const dir = projectCopy();
		const tools = join(dir, "templates", NEWEST, "tools.hbs");
		const good = readFileSync(tools, "utf8");
		// A key this version does not know (a later version's): the set cannot be built.
		writeFileSync(tools, good.replace(/^---\n/, "---\nlater: true\n"));
		const git = gitRepo(dir);
		writeFileSync(tools, good);
		const pinned = join(dir, "pinned.jsonl");
		writeFileSync(
			pinned,
			readFileSync(join(dir, "test/fixtures/examples/1-normal.jsonl"), "utf8").replace(
				'"data":{',
				'"data":{"templateVersion":"v1",',
			),
		);
		const args = ["diff", "test/fixtures/examples", "pinned.jsonl", "--to", "templates"];
		const run = await cli(dir, ...args, "--from", "HEAD", "--templates", "templates");
		expect(run.code, run.stderr).toBe(1);
		expect(
			count(run.stderr, `theway-context: HEAD:templates/${NEWEST}/tools.hbs:2:1: error: `),
		).toBe(1);
		expect(run.stderr).toMatch(/unknown key "later"/);
		expect(run.stderr).toContain(`--from HEAD: this version cannot build its set ${NEWEST}`);
		expect(run.stderr).toContain(`${SESSIONS.length} sessions not compared`);
		expect(run.stderr + run.stdout).not.toContain("theway-revision-");
		expect(run.stdout).toMatch(
			new RegExp(
				`^${SESSIONS.length + 1} sessions: 0 changed, 1 unchanged, ${SESSIONS.length} failed`,
				"m",
			),
		);
		const json = await cli(
			dir,
			...args,
			"--from",
			"HEAD",
			"--templates",
			"templates",
			"--format",
			"json",
		);
		const failed = (JSON.parse(json.stdout) as { sessions: { error?: string }[] }).sessions.filter(
			(s) => s.error !== undefined,
		);
		expect(failed).toHaveLength(SESSIONS.length);
		for (const s of failed)
			expect(s.error).toMatch(new RegExp(`^HEAD:templates/${NEWEST}/tools\\.hbs:2:1: `));
		expect(git("status", "--porcelain")).toBe(
			` M templates/${NEWEST}/tools.hbs\n?? pinned.jsonl\n`,
		);
	});
});

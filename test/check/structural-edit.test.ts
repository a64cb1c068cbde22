/**
 * The tests hold for any template edit a prompt engineer may make. In a copy
 * of the project, the newest set is restructured (the harness's second half
 * moved into a new partial, a line added to each section, a guarded line
 * added, a category added to its own categories.yaml, every changed
 * template bumped) and recorded as `npm run snapshots`
 * records it (`build --update`, the precompiled sets); then the build passes
 * and so does every test that reads the shipped sets (each test file that
 * uses the helpers deriving text from them), run in the copy. A test that
 * leans on the newest set's wording or structure fails here, by name.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { writePrecompiledSets } from "../../src/templates/write-precompiled.js";
import { cli } from "../support/project.js";
import { ADDED, restructure } from "../support/restructure.js";
import { tempDir } from "../support/temp.js";
import { NEWEST, ROOT } from "../support/template-sets.js";

/** The helpers that give a test the shipped sets' text or a copy of them. */
const HELPERS = /support\/(expected|template-sets|project|tool-results|preview)\.js/;
/**
 * Left out: the browser's tests (they need Chromium, and see the page, not
 * the wording), the cold process's (they measure dist/, which a template
 * edit leaves as it is), the published types' (they compile dist's `.d.ts`
 * files, no template: the longest file of the run), the resource limits' (a
 * minute of million-entry logs, no template text) and this file.
 */
const LEFT_OUT = /^test\/browser\/|cold-start|code-cache|published-types|security|structural-edit/;

/** The test files that read the shipped template sets, relative to the project. */
function templateFacingTests(): string[] {
	const files = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".test.ts"))
		.map((f) => join("test", f));
	return files
		.filter((f) => !LEFT_OUT.test(f) && HELPERS.test(readFileSync(join(ROOT, f), "utf8")))
		.sort();
}

/** Not copied: the dependencies (linked instead) and the precompiled sets (written anew). */
const NOT_COPIED = new Set(["node_modules", ".git", ".compiled"]);

/** A copy of the project as it is checked out and built, its dependencies linked. */
function projectCopy(): string {
	const dir = tempDir("theway-structural-");
	for (const name of readdirSync(ROOT)) {
		if (NOT_COPIED.has(name)) continue;
		cpSync(join(ROOT, name), join(dir, name), {
			recursive: true,
			filter: (src) => !NOT_COPIED.has(basename(src)),
		});
	}
	symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
	return dir;
}

/** Each failed test of a vitest JSON report: its file, name and first line of failure. */
function failures(report: string): string[] {
	const json = JSON.parse(readFileSync(report, "utf8")) as {
		testResults: {
			name: string;
			message?: string;
			assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
		}[];
	};
	return json.testResults.flatMap((file) => {
		const failed = file.assertionResults
			.filter((a) => a.status === "failed")
			.map((a) => `${file.name}: ${a.fullName}: ${a.failureMessages[0]?.split("\n")[0]}`);
		return failed.length === 0 && file.message ? [`${file.name}: ${file.message}`] : failed;
	});
}

describe("a structural edit of the newest set", () => {
	it("builds once recorded, and every test that reads the shipped sets still passes", async () => {
		const dir = projectCopy();
		const set = join(dir, "templates", NEWEST);
		const partial = restructure(set);
		const update = await cli(dir, "build", "--update", "--templates", "templates");
		expect(update.code, update.stderr).toBe(0);
		writePrecompiledSets(join(dir, "templates"));
		const build = await cli(dir, "build", "--templates", "templates");
		expect(build.code, build.stderr).toBe(0);
		expect(build.stdout).toMatch(
			new RegExp(
				`templates ${NEWEST}: .*categories from \\S*templates/${NEWEST}/categories\\.yaml \\(its own\\)`,
			),
		);
		expect(readFileSync(join(set, "categories.yaml"), "utf8")).toContain(ADDED.category);
		const snapshot = readFileSync(join(dir, "snapshots/examples/1-normal.txt"), "utf8");
		expect(snapshot).toContain(`<tools>\n${ADDED.heading("tools")}\n`);
		expect(snapshot).toContain(`<harness>\n${ADDED.heading("harness")}\n`);
		expect(readFileSync(join(dir, "templates/lock.json"), "utf8")).toContain(`"${partial}"`);

		const files = templateFacingTests();
		expect(files.length).toBeGreaterThan(10);
		const report = join(dir, "structural-report.json");
		const run = spawnSync(
			process.execPath,
			[
				join(dir, "node_modules/vitest/vitest.mjs"),
				"run",
				"--reporter=json",
				`--outputFile=${report}`,
				...files,
			],
			{ cwd: dir, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } },
		);
		const found = existsSync(report) ? failures(report) : [run.stderr];
		expect(found, "these tests lean on the newest set's wording or structure").toEqual([]);
		expect(run.status, run.stderr).toBe(0);
	}, 900_000);
});

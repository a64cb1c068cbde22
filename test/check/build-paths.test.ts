/**
 * The paths `build` prints are the user's: shown from the folder the
 * command was run in (relative inside it, whole outside it), the same
 * whether the command runs as a process or in this one, whose own folder
 * is not the command's: the categories each set uses, and the files
 * `--update` writes.
 */
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeNextSet } from "../../src/check/new-set.js";
import { BIN, ROOT, runBuilt, runCli } from "../support/cli.js";
import { tempDir } from "../support/temp.js";
import { copyBundledSet } from "../support/template-sets.js";

const FIXTURE = join(ROOT, "test/fixtures/examples/2-collapse-child.jsonl");

/** A project: `templates/v1` sharing `categories.yaml` beside the folder, `v2` with its own; one fixture. */
function project(): string {
	const dir = tempDir("theway-build-paths-");
	copyBundledSet(join(dir, "templates/v1"), dir);
	makeNextSet(join(dir, "templates"));
	for (const folder of ["fixtures", "snapshots"]) mkdirSync(join(dir, folder));
	cpSync(FIXTURE, join(dir, "fixtures/child.jsonl"));
	return dir;
}

/** The build's lines naming a path: the categories each set uses and the files updated. */
const pathLines = (stdout: string) =>
	stdout.split("\n").filter((l) => /categories from|^updated /.test(l));

/** `build --update` with the project's folders named under `root` (relative: "."). */
const buildArgs = (root = ".") => [
	"build",
	"--update",
	...["templates", "fixtures", "snapshots"].flatMap((f) => [`--${f}`, join(root, f)]),
];

describe("build's paths", () => {
	it("checks the default README only if present, but refuses a --readme that is not there", async () => {
		const dir = project();
		expect((await runCli(buildArgs(), dir)).code).toBe(0);
		const named = await runCli([...buildArgs(), "--readme", "GUIDE.md"], dir);
		expect(named.code).toBe(2);
		expect(named.stderr).toContain(`--readme ${join(dir, "GUIDE.md")}: no such file or folder`);
	});

	it("are shown from the command's folder, not this process's", async () => {
		const dir = project();
		expect(process.cwd()).not.toBe(dir);
		const run = await runCli(buildArgs(), dir);
		expect(run.code, run.stderr).toBe(0);
		expect(pathLines(run.stdout)).toEqual([
			expect.stringMatching(/^ok templates v1: .*, categories from categories\.yaml \(shared\)$/),
			expect.stringMatching(
				/^ok templates v2: .*, categories from templates\/v2\/categories\.yaml \(its own\)$/,
			),
			"updated templates/lock.json:",
			"updated snapshots/child.txt",
		]);
		// From a folder the files are not under, the paths are whole.
		const again = project();
		const away = await runCli(buildArgs(again), tempDir("theway-elsewhere-"));
		expect(pathLines(away.stdout)).toEqual([
			expect.stringContaining(`categories from ${join(again, "categories.yaml")} (shared)`),
			expect.stringContaining(`categories from ${join(again, "templates/v2/categories.yaml")}`),
			`updated ${join(again, "templates/lock.json")}:`,
			`updated ${join(again, "snapshots/child.txt")}`,
		]);
	});

	it.skipIf(!existsSync(BIN))("are the same as a process and in this one", async () => {
		const here = await runCli(buildArgs(), project());
		const there = await runBuilt(buildArgs(), { cwd: project() });
		expect(there.code, there.stderr).toBe(0);
		expect(pathLines(there.stdout)).toHaveLength(4);
		expect(pathLines(there.stdout)).toEqual(pathLines(here.stdout));
	});
});

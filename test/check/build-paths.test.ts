/**
 * The paths `build` prints are the user's: shown from the folder the
 * command was run in (relative inside it, whole outside it), the same
 * whether the command runs as a process or in this one, whose own folder
 * is not the command's.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeNextSet } from "../../src/check/new-set.js";
import { BIN, runBuilt, runCli } from "../support/cli.js";
import { tempDir } from "../support/temp.js";
import { copyBundledSet } from "../support/template-sets.js";

/** A project: `templates/v1` sharing `categories.yaml` beside the folder, `v2` with its own. */
function project(): string {
	const dir = tempDir("theway-build-paths-");
	copyBundledSet(join(dir, "templates/v1"), dir);
	makeNextSet(join(dir, "templates"));
	for (const folder of ["fixtures", "snapshots"]) mkdirSync(join(dir, folder));
	return dir;
}

/** The build's lines naming a categories file. */
const categoryLines = (stdout: string) =>
	stdout.split("\n").filter((l) => /categories from/.test(l));

/** `build` with the project's folders named under `root` (relative: "."). */
const buildArgs = (root = ".") =>
	["templates", "fixtures", "snapshots"].flatMap((f) => [`--${f}`, join(root, f)]);
const ARGS = ["build", ...buildArgs()];

describe("build's paths", () => {
	it("are shown from the command's folder, not this process's", async () => {
		const dir = project();
		expect(process.cwd()).not.toBe(dir);
		const run = await runCli(ARGS, dir);
		expect(categoryLines(run.stdout)).toEqual([
			expect.stringMatching(/^ok templates v1: .*, categories from categories\.yaml \(shared\)$/),
			expect.stringMatching(
				/^ok templates v2: .*, categories from templates\/v2\/categories\.yaml \(its own\)$/,
			),
		]);
		// From a folder the files are not under, the path is whole.
		const outside = tempDir("theway-elsewhere-");
		const away = await runCli(["build", ...buildArgs(dir)], outside);
		expect(categoryLines(away.stdout)[0]).toContain(
			`categories from ${join(dir, "categories.yaml")} (shared)`,
		);
	});

	it.skipIf(!existsSync(BIN))("are the same as a process and in this one", async () => {
		const dir = project();
		const here = await runCli(ARGS, dir);
		const there = await runBuilt(ARGS, { cwd: dir });
		expect(categoryLines(there.stdout)).toHaveLength(2);
		expect(categoryLines(there.stdout)).toEqual(categoryLines(here.stdout));
	});
});

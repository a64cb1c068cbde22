/**
 * The set workflow end to end, as a new user follows it in a copy of the
 * project: make the next set, edit a template there, get told to bump it,
 * bump it, record the change with `build --update` (the lock and the
 * snapshots, each diff printed), see what it does with `diff`, then a green
 * build. And the old recipe's trap: a set copied into an existing set folder
 * is refused by the build, at the nested folder.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, diffExamples, projectCopy, rewrite } from "../support/project.js";
import { addLine, bumped, NEWEST, NEXT, versionOf, withVersion } from "../support/template-sets.js";

const TEMPLATES = ["--templates", "templates"];

describe("the set workflow, step by step", () => {
	it("new-set, edit, bump, build --update, diff, green build", async () => {
		const dir = projectCopy();
		expect((await cli(dir, "build", ...TEMPLATES)).code).toBe(0);

		// 1. The next set, recorded in the lock.
		const made = await cli(dir, "new-set", ...TEMPLATES);
		expect(made.code, made.stderr).toBe(0);
		expect(made.stdout).toContain(`made ${NEXT} from ${NEWEST}`);
		expect(made.stdout).toContain(`recorded ${NEXT} in the lock`);
		expect(made.stdout).toMatch(/Bump a template in place/);
		const lock = JSON.parse(readFileSync(join(dir, "templates/lock.json"), "utf8"));
		expect(lock.sets[NEXT]).toEqual(lock.sets[NEWEST]);
		// Its templates, and the categories it was made with as its own.
		expect(readdirSync(join(dir, "templates", NEXT)).sort()).toEqual(
			[...new Set([...readdirSync(join(dir, "templates", NEWEST)), "categories.yaml"])].sort(),
		);
		expect(made.stdout).toContain(`${NEXT}/categories.yaml is a copy of`);
		// The fixtures now render with the new set and nothing else: one error, not one per fixture.
		const copied = await cli(dir, "build", ...TEMPLATES);
		expect(copied.code).toBe(1);
		const errors = copied.stderr
			.split("\n")
			.filter((l) => /^theway-context: (.+: )?error: /.test(l));
		expect(errors).toHaveLength(1);
		expect(copied.stderr).toMatch(
			new RegExp(
				`\\d+ fixture\\(s\\) render as before but with another set \\(${NEWEST} → ${NEXT}\\): run build --update`,
			),
		);

		// 2. An edit without a bump is refused at the template's version line.
		const harness = join(dir, "templates", NEXT, "harness.hbs");
		const before = readFileSync(harness, "utf8");
		rewrite(harness, (t) => addLine(t, "Keep answers short."));
		const unbumped = await cli(dir, "build", ...TEMPLATES);
		expect(unbumped.code).toBe(1);
		expect(unbumped.stderr).toMatch(new RegExp(`${harness}:\\d+:\\d+`));
		expect(unbumped.stderr).toContain("harness changed but its version is still");

		// 3. Bumped: the lock is out of date until build --update records it.
		rewrite(harness, (t) => withVersion(t, bumped(versionOf(before))));
		const stale = await cli(dir, "build", ...TEMPLATES);
		expect(stale.code).toBe(1);
		expect(stale.stderr).toContain("run build --update");
		const update = await cli(dir, "build", "--update", ...TEMPLATES);
		expect(update.code, update.stderr).toBe(0);
		expect(update.stdout).toContain(
			`${NEXT}/harness changed (version ${versionOf(before)} → ${bumped(versionOf(before))})`,
		);
		expect(update.stdout).toContain("Keep answers short.");
		const snapshot = readFileSync(join(dir, "snapshots/examples/1-normal.txt"), "utf8");
		expect(snapshot).toContain(`templates: ${NEXT}`);
		expect(snapshot).toMatch(/^Keep answers short\.$/m);

		// 4. What the change does, old set against new.
		const diff = await diffExamples(dir, NEWEST, NEXT);
		expect(diff.code, diff.stderr).toBe(0);
		expect(diff.stdout).toContain("+");
		expect(diff.stdout).toContain("Keep answers short.");

		// 5. Green.
		const green = await cli(dir, "build", ...TEMPLATES);
		expect(green.code, green.stderr).toBe(0);
		expect(green.stderr).toBe("");
	});

	it("new-set never writes over a set, and refuses a folder that holds no sets", async () => {
		const dir = projectCopy();
		expect((await cli(dir, "new-set", ...TEMPLATES)).code).toBe(0);
		const again = await cli(dir, "new-set", ...TEMPLATES);
		expect(again.code).toBe(0);
		expect(again.stdout).toContain(`made v${Number(NEXT.slice(1)) + 1} from ${NEXT}`);
		const inSet = await cli(dir, "new-set", "--templates", join("templates", NEWEST));
		expect(inSet.code).toBe(1);
		expect(inSet.stderr).toMatch(/not a templates folder of sets/);
		const extra = await cli(dir, "new-set", "v9", ...TEMPLATES);
		expect(extra.code).toBe(2);
	});

	it("new-set writes nothing when the lock cannot be read, however often it is run", async () => {
		const dir = projectCopy();
		writeFileSync(join(dir, "templates", "lock.json"), "{\n");
		const before = readdirSync(join(dir, "templates")).sort();
		for (let i = 0; i < 2; i++) {
			const run = await cli(dir, "new-set", ...TEMPLATES);
			expect(run.code).toBe(1);
			expect(run.stderr).toMatch(/lock\.json:\d+:\d+: error: /);
		}
		expect(readdirSync(join(dir, "templates")).sort()).toEqual(before);
	});

	it("a set copied into an existing set folder (cp -r onto it) fails the build, at that folder", async () => {
		const dir = projectCopy();
		const oldest = readdirSync(join(dir, "templates"))
			.filter((n) => /^v\d+$/.test(n))
			.sort()[0] as string;
		cpSync(join(dir, "templates", oldest), join(dir, "templates", NEWEST, oldest), {
			recursive: true,
		});
		const run = await cli(dir, "build", ...TEMPLATES);
		expect(run.code).toBe(1);
		const nested = join(dir, "templates", NEWEST, oldest);
		expect(run.stderr).toContain(
			`${nested}: error: ${oldest}/ is a set folder inside set ${NEWEST}`,
		);
		expect(run.stderr).toContain("new-set");
		expect(existsSync(nested)).toBe(true);
	});
});

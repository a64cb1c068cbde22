/**
 * `build --watch` while a new set is not recorded yet: an edit shows the same
 * hunk in every fixture, and the watch prints each distinct change once,
 * with the fixtures it hits counted (the one-off build keeps a diff a
 * fixture). Drifts cut into hunks and grouped by what they change.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groupDrifts, hunksOf } from "../../src/check/drift-groups.js";
import type { FixtureResult } from "../../src/check/fixtures.js";
import { runCheck } from "../../src/check/run.js";
import type { Diagnostic } from "../../src/errors.js";
import { cli, projectCopy, ROOT, rewrite } from "../support/project.js";
import { addLine, bumped, NEWEST, versionOf, withVersion } from "../support/template-sets.js";

const ADDED = "Say which check you ran.";
const FIXTURES = readdirSync(join(ROOT, "test/fixtures/examples")).filter((f) =>
	f.endsWith(".jsonl"),
).length;

/** A project copy with a new set made by new-set, its harness given a line, not recorded again. */
async function newSetEdited(): Promise<string> {
	const dir = projectCopy();
	const next = `v${Number(NEWEST.slice(1)) + 1}`;
	expect((await cli(dir, "new-set", "--templates", "templates")).code).toBe(0);
	rewrite(join(dir, "templates", next, "harness.hbs"), (t) =>
		withVersion(addLine(t, ADDED), bumped(versionOf(t))),
	);
	return dir;
}

function check(dir: string, groupDrifts: boolean): Diagnostic[] {
	const out: Diagnostic[] = [];
	runCheck(
		{
			templates: join(dir, "templates"),
			fixtures: join(dir, "test/fixtures"),
			snapshots: join(dir, "snapshots"),
			groupDrifts,
		},
		{ info: () => {}, diagnostic: (d) => out.push(d) },
	);
	return out;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("drifts grouped", () => {
	it("a change once, with the fixtures it hits counted; one diff a fixture without", async () => {
		const dir = await newSetEdited();
		const each = check(dir, false).filter((d) => d.code === "snapshot_drift");
		const text = (ds: Diagnostic[]) => ds.map((d) => d.message).join("\n");
		expect(count(text(each), `\n+${ADDED}\n`)).toBe(FIXTURES);
		const grouped = check(dir, true).filter((d) => d.code === "snapshot_drift");
		expect(count(text(grouped), `\n+${ADDED}\n`)).toBe(1);
		const harness = grouped.find((d) => d.message.includes(ADDED)) as Diagnostic;
		expect(harness.message).toMatch(
			new RegExp(
				`^rendering drifted from the snapshot in ${FIXTURES} fixtures \\(examples/.+ and ${FIXTURES - 3} more\\)`,
			),
		);
		expect(harness.file).toBe(join(dir, "snapshots"));
		expect(text(grouped).split("\n").length).toBeLessThan(text(each).split("\n").length / 5);
	});

	it("cuts a diff at its hunks and groups hunks that change the same lines, context aside", () => {
		const drift = (name: string, diff: string): FixtureResult => ({
			name,
			fixture: `${name}.jsonl`,
			snapshot: `${name}.txt`,
			status: "drift",
			diff,
		});
		const a = "@@ -1,2 +1,2 @@\n-x\n+y\n context a\n@@ -9 +9,2 @@\n z\n+w\n";
		const b = "@@ -3,2 +3,2 @@\n-x\n+y\n context b\n";
		expect(hunksOf(a)).toEqual(["@@ -1,2 +1,2 @@\n-x\n+y\n context a", "@@ -9 +9,2 @@\n z\n+w"]);
		expect(groupDrifts([drift("a", a), drift("b", b)])).toEqual([
			{ hunk: "@@ -1,2 +1,2 @@\n-x\n+y\n context a", fixtures: ["a", "b"] },
			{ hunk: "@@ -9 +9,2 @@\n z\n+w", fixtures: ["a"] },
		]);
	});
});

describe("build --watch, as a process", () => {
	it("prints the edit's hunk once, with the fixtures it hits", async () => {
		const dir = await newSetEdited();
		const child = spawn(
			process.execPath,
			[join(ROOT, "dist/cli/bin.cjs"), "build", "--watch", "--templates", "templates"],
			{
				cwd: dir,
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		let err = "";
		child.stderr.on("data", (d) => {
			err += d;
		});
		const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
		const deadline = Date.now() + 30_000;
		while (!/\] \d+ errors?/.test(err) && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 50));
		child.kill("SIGINT");
		expect(await exited).toBe(0);
		expect(count(err, `\n+${ADDED}\n`)).toBe(1);
		expect(err).toContain(`in ${FIXTURES} fixtures (`);
	}, 60_000);
});

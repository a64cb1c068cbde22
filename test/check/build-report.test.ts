/**
 * `build` reports every problem of a run (a lock that refuses a change does
 * not hide a drifted snapshot), and `--update` says what it recorded in the
 * lock, in the one-off run and in the watch's short line.
 */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type WatchRun, watchCheck } from "../../src/check/watch.js";
import { printRun } from "../../src/cli/build.js";
import { cli, projectCopy, rewrite } from "../support/project.js";
import { editLastLine, NEWEST } from "../support/template-sets.js";

describe("build reports every problem of the run", () => {
	it("a template changed without a bump and a drifted snapshot, both located", async () => {
		const dir = projectCopy();
		const harness = join(dir, "templates", NEWEST, "harness.hbs");
		rewrite(harness, (t) => editLastLine(t, " (edited)"));
		const snapshot = join(dir, "snapshots/examples/1-normal.txt");
		rewrite(snapshot, (t) => `${t}a line the rendering does not have\n`);
		const run = await cli(dir, "build", "--templates", "templates");
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`${harness}:`);
		expect(run.stderr).toMatch(/harness changed but its version is still/);
		expect(run.stderr).toMatch(/1-normal\.jsonl.*\n?.*rendering drifted/);
		expect(run.stderr).toMatch(/^build: failed, [2-9]\d* errors$/m);
	});

	it("writes nothing under --update while the lock refuses a change", async () => {
		const dir = projectCopy();
		rewrite(join(dir, "templates", NEWEST, "harness.hbs"), (t) => editLastLine(t, " (edited)"));
		const snapshot = join(dir, "snapshots/examples/1-normal.txt");
		const before = readFileSync(snapshot, "utf8");
		const lock = readFileSync(join(dir, "templates/lock.json"), "utf8");
		const run = await cli(dir, "build", "--update", "--templates", "templates");
		expect(run.code).toBe(1);
		expect(readFileSync(snapshot, "utf8")).toBe(before);
		expect(readFileSync(join(dir, "templates/lock.json"), "utf8")).toBe(lock);
	});
});

describe("build --update lists what it recorded", () => {
	it("a new set, by name", async () => {
		const dir = projectCopy();
		const next = `v${Number(NEWEST.slice(1)) + 1}`;
		cpSync(join(dir, "templates", NEWEST), join(dir, "templates", next), { recursive: true });
		const run = await cli(dir, "build", "--update", "--templates", "templates");
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(
			new RegExp(`lock\\.json:\\n  template set ${next} is not in the lock`),
		);
	});

	it("a budget alone (the fingerprint), with what changed", async () => {
		const dir = projectCopy();
		rewrite(join(dir, "templates", NEWEST, "tools.hbs"), (t) =>
			t.replace(/^---\n/, "---\nbudget: { tokens: 100000 }\n"),
		);
		const run = await cli(dir, "build", "--update", "--templates", "templates");
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(
			new RegExp(`lock\\.json:\\n  ${NEWEST}: fingerprint changed \\(a budget`),
		);
	});

	it("in the watch's short line too", async () => {
		const dir = projectCopy();
		const next = `v${Number(NEWEST.slice(1)) + 1}`;
		cpSync(join(dir, "templates", NEWEST), join(dir, "templates", next), { recursive: true });
		const run = await new Promise<WatchRun>((done) => {
			const watcher = watchCheck(
				{
					templates: join(dir, "templates"),
					fixtures: join(dir, "test/fixtures"),
					snapshots: join(dir, "snapshots"),
					update: true,
				},
				(r) => {
					watcher.close();
					done(r);
				},
			);
		});
		let out = "";
		printRun(run, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd: dir });
		expect(out).toMatch(/ ok: \d+ fixtures checked/);
		expect(out).toContain(`template set ${next} is not in the lock`);
		rmSync(dir, { recursive: true, force: true });
	});
});

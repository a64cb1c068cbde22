/**
 * `build --watch` follows a set made after it started, and does not end on a
 * stale error when the lock and the snapshots are written one after the
 * other (as `npm run snapshots` does from another process).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CheckOptions, runCheck } from "../../src/check/run.js";
import { type Watcher, type WatchRun, watchCheck } from "../../src/check/watch.js";
import { projectCopy } from "../support/project.js";
import { bumped, editLastLine, NEWEST, versionOf, withVersion } from "../support/template-sets.js";

const optionsOf = (dir: string): CheckOptions => ({
	templates: join(dir, "templates"),
	fixtures: join(dir, "test/fixtures"),
	snapshots: join(dir, "snapshots"),
});

/** A watch whose runs can be awaited one by one. */
function start(options: CheckOptions) {
	const runs: WatchRun[] = [];
	let wake: (() => void) | undefined;
	const watcher = watchCheck(options, (run) => {
		runs.push(run);
		wake?.();
	});
	let seen = 0;
	const next = async (): Promise<WatchRun> => {
		while (runs.length <= seen)
			await new Promise<void>((resolve) => {
				wake = resolve;
			});
		return runs[seen++] as WatchRun;
	};
	/** The last run once none came for `ms`. */
	const settled = async (ms: number): Promise<WatchRun> => {
		for (;;) {
			const count = runs.length;
			await new Promise((resolve) => setTimeout(resolve, ms));
			if (runs.length === count && count > 0) {
				seen = count;
				return runs[count - 1] as WatchRun;
			}
		}
	};
	return { watcher, next, settled, runs };
}

const errorsOf = (run: WatchRun) => run.diagnostics.filter((d) => d.severity === "error");
const quiet = { info: () => {}, diagnostic: () => {} };

let open: Watcher | undefined;
afterEach(() => open?.close());

describe("build --watch follows the project", () => {
	it("sees edits under a set copied in after it started", async () => {
		const dir = projectCopy();
		const options = optionsOf(dir);
		runCheck({ ...options, update: true }, quiet);
		const { watcher, next, settled } = start(options);
		open = watcher;
		expect(errorsOf(await next())).toEqual([]);
		const next_ = `v${Number(NEWEST.slice(1)) + 1}`;
		cpSync(join(options.templates, NEWEST), join(options.templates, next_), { recursive: true });
		await settled(800); // the copy: the lock no longer lists the new set
		const env = join(options.templates, next_, "environment.hbs");
		writeFileSync(
			env,
			readFileSync(env, "utf8").replace("{{environment.cwd}}", "{{environment.cdw}}"),
		);
		const run = await next();
		expect(run.changed).toContain(env);
		expect(errorsOf(run).some((d) => d.file === env && /environment\.cdw/.test(d.message))).toBe(
			true,
		);
	});

	it("ends green when the lock is written well before the snapshots", async () => {
		const dir = projectCopy();
		const options = optionsOf(dir);
		const { watcher, next, settled } = start(options);
		open = watcher;
		expect(errorsOf(await next())).toEqual([]);
		// The edit, bumped, made in a second copy and brought over as a slow
		// `build --update` would write it: the template, the lock, then (later) the snapshots.
		const other = projectCopy();
		const edit = (root: string) => {
			const harness = join(root, "templates", NEWEST, "harness.hbs");
			const text = readFileSync(harness, "utf8");
			writeFileSync(harness, withVersion(editLastLine(text, " (edited)"), bumped(versionOf(text))));
		};
		edit(other);
		runCheck({ ...optionsOf(other), update: true }, quiet);
		edit(dir);
		cpSync(join(other, "templates/lock.json"), join(options.templates, "lock.json"));
		const stale = await settled(800);
		expect(errorsOf(stale).map((d) => d.code)).toContain("snapshot_drift");
		cpSync(join(other, "snapshots"), options.snapshots, { recursive: true });
		const last = await settled(800);
		expect(errorsOf(last)).toEqual([]);
	});

	it("does not run again for what its own --update wrote", async () => {
		const dir = projectCopy();
		const options = { ...optionsOf(dir), update: true };
		const harness = join(options.templates, NEWEST, "harness.hbs");
		const text = readFileSync(harness, "utf8");
		writeFileSync(harness, withVersion(editLastLine(text, " (edited)"), bumped(versionOf(text))));
		const { watcher, settled, runs } = start(options);
		open = watcher;
		const run = await settled(800);
		expect(errorsOf(run)).toEqual([]);
		expect(run.info.some((l) => l.startsWith("updated ") && l.includes("snapshots"))).toBe(true);
		expect(runs).toHaveLength(1);
	});
});

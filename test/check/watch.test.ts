/**
 * `build --watch`, driven through its API on a throwaway project: a run at
 * start, a run per burst of saves to a template, categories.yaml or a
 * fixture, errors reported without ending the watch, and a clean close.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckOptions } from "../../src/check/run.js";
import { runCheck } from "../../src/check/run.js";
import { type Watcher, type WatchRun, watchCheck } from "../../src/check/watch.js";
import { tempDir } from "../support/temp.js";
import { copyBundledSet, ROOT, withExtraCategory } from "../support/template-sets.js";

/** A project with the bundled set, one fixture, and its snapshot and lock up to date. */
function project(): CheckOptions {
	const dir = tempDir("theway-watch-");
	copyBundledSet(join(dir, "templates/v1"), dir);
	mkdirSync(join(dir, "fixtures"));
	cpSync(
		join(ROOT, "test/fixtures/examples/2-collapse-child.jsonl"),
		join(dir, "fixtures/child.jsonl"),
	);
	const options = {
		templates: join(dir, "templates"),
		fixtures: join(dir, "fixtures"),
		snapshots: join(dir, "snapshots"),
	};
	runCheck({ ...options, update: true }, { info: () => {}, diagnostic: () => {} });
	return options;
}

/** A watch whose runs can be awaited one by one. */
function start(options: CheckOptions) {
	const runs: WatchRun[] = [];
	let wake: (() => void) | undefined;
	const watcher = watchCheck(
		options,
		(run) => {
			runs.push(run);
			wake?.();
		},
		{ debounceMs: 150 },
	);
	let seen = 0;
	const next = async (): Promise<WatchRun> => {
		while (runs.length <= seen)
			await new Promise<void>((resolve) => {
				wake = resolve;
			});
		return runs[seen++] as WatchRun;
	};
	return { watcher, next, runs };
}

const errorsOf = (run: WatchRun) => run.diagnostics.filter((d) => d.severity === "error");

let open: Watcher | undefined;
afterEach(() => open?.close());

describe("build --watch", () => {
	it("sees every save of a file an editor replaces by renaming a new one over it", async () => {
		const options = project();
		const { watcher, next } = start(options);
		open = watcher;
		await next();
		const env = join(options.templates, "v1/environment.hbs");
		const text = readFileSync(env, "utf8");
		const save = (content: string) => {
			writeFileSync(`${env}.tmp`, content);
			renameSync(`${env}.tmp`, env);
		};
		save(text.replace("{{environment.cwd}}", "{{environment.cdw}}"));
		const broken = await next();
		expect(errorsOf(broken).map((d) => d.code)).toContain("template_type");
		save(text); // the second save replaces the file the first one made
		const fixed = await next();
		expect(errorsOf(fixed)).toEqual([]);
		expect(fixed.changed.some((f) => f.endsWith("environment.hbs"))).toBe(true);
	});

	it("runs at start, then after each save; a template error is reported and the watch goes on", async () => {
		const options = project();
		const { watcher, next } = start(options);
		open = watcher;
		const first = await next();
		expect(first.changed).toEqual([]);
		expect(errorsOf(first)).toEqual([]);
		expect(first.result?.fixtures.map((f) => f.status)).toEqual(["ok"]);

		const env = join(options.templates, "v1/environment.hbs");
		const text = readFileSync(env, "utf8");
		writeFileSync(env, text.replace("{{environment.cwd}}", "{{environment.cdw}}"));
		const broken = await next();
		expect(broken.changed.some((f) => f.endsWith("environment.hbs"))).toBe(true);
		expect(
			errorsOf(broken).some((d) => d.file === env && d.message.includes("environment.cdw")),
		).toBe(true);

		writeFileSync(env, text);
		const fixed = await next();
		expect(errorsOf(fixed)).toEqual([]);
	});

	it("watches categories.yaml and the fixtures, and never its own precompiled output", async () => {
		const options = project();
		const { watcher, next } = start(options);
		open = watcher;
		await next();
		const categories = join(options.templates, "../categories.yaml");
		const original = readFileSync(categories, "utf8");
		writeFileSync(categories, withExtraCategory(original));
		const afterCategories = await next();
		expect(afterCategories.changed.some((f) => f.endsWith("categories.yaml"))).toBe(true);
		expect(errorsOf(afterCategories).map((d) => d.code)).toContain("version_not_bumped");

		writeFileSync(categories, original);
		expect(errorsOf(await next())).toEqual([]);
		cpSync(join(options.fixtures, "child.jsonl"), join(options.fixtures, "second.jsonl"));
		const afterFixture = await next();
		expect(afterFixture.changed.some((f) => f.endsWith("second.jsonl"))).toBe(true);
		expect(errorsOf(afterFixture).some((d) => d.message.includes("no snapshot"))).toBe(true);
	});

	it("watches the README whose examples it checks: a fixed example ends the error", async () => {
		const options = project();
		const readme = join(options.templates, "../README.md");
		const marker = "<!-- rendered: fixtures/child.jsonl lineage -->";
		writeFileSync(readme, `# demo\n\n${marker}\n\`\`\`text\nstale\n\`\`\`\n`);
		const { watcher, next } = start({ ...options, readme });
		open = watcher;
		const stale = await next();
		expect(errorsOf(stale).map((d) => d.code)).toEqual(["readme_drift"]);
		runCheck({ ...options, readme, update: true }, { info: () => {}, diagnostic: () => {} });
		const fixed = await next();
		expect(fixed.changed).toEqual([readme]);
		expect(errorsOf(fixed)).toEqual([]);
	});

	it("takes a burst of saves as one run", async () => {
		const options = project();
		const { watcher, next, runs } = start(options);
		open = watcher;
		await next();
		const harness = join(options.templates, "v1/harness.hbs");
		const text = readFileSync(harness, "utf8");
		for (let i = 0; i < 5; i++) writeFileSync(harness, `${text}\n`.repeat(1 + (i % 2)));
		writeFileSync(harness, text);
		const run = await next();
		expect(run.changed).toEqual([harness]);
		expect(errorsOf(run)).toEqual([]);
		expect(runs).toHaveLength(2);
	});

	it("survives a run that cannot run at all (no template set), and recovers", async () => {
		const options = project();
		const { watcher, next } = start(options);
		open = watcher;
		await next();
		const v1 = join(options.templates, "v1");
		renameSync(v1, join(options.templates, "v1-moved"));
		const failed = await next();
		expect(failed.failure).toMatchObject({
			message: expect.stringMatching(/no template set here/),
		});
		renameSync(join(options.templates, "v1-moved"), v1);
		let run = await next();
		while (run.failure !== undefined) run = await next();
		expect(errorsOf(run)).toEqual([]);
	});
});

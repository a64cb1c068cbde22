/**
 * A throwaway copy of the project as a prompt engineer has it: every
 * template set with its lock, `categories.yaml` beside the templates, the
 * example fixtures and their snapshots; the CLI is run in it with {@link cli}.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, ROOT, type Run } from "./cli.js";
import { tempDir } from "./temp.js";

/** The CLI run in process, as the project's tests run it (one runner: support/cli.ts). */
export { cli, ROOT, type Run } from "./cli.js";

/** A project folder: `templates/` (without its precompiled sets), fixtures and snapshots. */
export function projectCopy(): string {
	const dir = tempDir("theway-workbench-");
	cpSync(join(ROOT, "templates"), join(dir, "templates"), {
		recursive: true,
		filter: (src) => !src.includes(".compiled"),
	});
	cpSync(join(ROOT, "categories.yaml"), join(dir, "categories.yaml"));
	cpSync(join(ROOT, "test/fixtures/examples"), join(dir, "test/fixtures/examples"), {
		recursive: true,
	});
	cpSync(join(ROOT, "snapshots/examples"), join(dir, "snapshots/examples"), { recursive: true });
	return dir;
}

/** `diff` of a copy's example sessions, set `from` against set `to` of its templates folder. */
export function diffExamples(
	dir: string,
	from: string,
	to: string,
	...more: string[]
): Promise<Run> {
	const examples = "test/fixtures/examples";
	return cli(
		dir,
		"diff",
		examples,
		"--from",
		from,
		"--to",
		to,
		"--templates",
		"templates",
		...more,
	);
}

/** Rewrites a file with a function of its text. */
export function rewrite(file: string, change: (text: string) => string): void {
	writeFileSync(file, change(readFileSync(file, "utf8")));
}

/** Makes `dir` a git repository with everything in it committed; returns a git runner there. */
export function gitRepo(dir: string): (...args: string[]) => string {
	const run = (...args: string[]) =>
		execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
			cwd: dir,
			encoding: "utf8",
		});
	run("init", "-q", "-b", "main");
	run("add", "-A");
	run("commit", "-q", "-m", "templates");
	return run;
}

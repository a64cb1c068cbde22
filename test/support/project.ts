/**
 * A throwaway copy of the project as a prompt engineer has it: every
 * template set with its lock, `categories.yaml` beside the templates, the
 * example fixtures and their snapshots; and the CLI run in it, in process.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { tempDir } from "./temp.js";

export const ROOT = join(import.meta.dirname, "../..");

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

export interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** `theway-context argv…` run in `cwd`. */
export async function cli(cwd: string, ...argv: string[]): Promise<Run> {
	let stdout = "";
	let stderr = "";
	const code = await main(argv, {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		cwd,
	});
	return { code, stdout, stderr };
}

/** Rewrites a file with a function of its text. */
export function rewrite(file: string, change: (text: string) => string): void {
	writeFileSync(file, change(readFileSync(file, "utf8")));
}

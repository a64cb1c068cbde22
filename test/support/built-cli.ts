/**
 * The built CLI (dist/cli/bin.js) run as a child process, for what only a
 * real process shows: a server that runs until a signal, a signal itself,
 * a terminal. `npm test` builds before it tests; a test that needs the
 * build skips when it is missing (`HAVE_BUILT_CLI`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const BUILT_CLI = join(import.meta.dirname, "../..", "dist/cli/bin.js");
export const HAVE_BUILT_CLI = existsSync(BUILT_CLI);

/** A running `theway-context` process and what it has printed so far. */
export interface CliProcess {
	child: ChildProcess;
	stdout(): string;
	stderr(): string;
	/** Resolves when stdout or stderr (all of it so far) matches `pattern`; rejects if the process ends first. */
	waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<RegExpMatchArray>;
	/** Resolves with the exit code (a signal's death is 128 + its number, as a shell says). */
	exited: Promise<number>;
}

/** Starts `theway-context ARGS…` in `cwd`, with `env` added to this process's environment. */
export function startCli(
	args: readonly string[],
	cwd: string,
	env: Record<string, string> = {},
): CliProcess {
	const child = spawn(process.execPath, [BUILT_CLI, ...args], {
		cwd,
		env: { ...process.env, ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	const text = { stdout: "", stderr: "" };
	const waiting = new Set<() => void>();
	for (const name of ["stdout", "stderr"] as const) {
		child[name]?.setEncoding("utf8");
		child[name]?.on("data", (chunk: string) => {
			text[name] += chunk;
			for (const check of waiting) check();
		});
	}
	let ended = false;
	const exited = new Promise<number>((resolve) => {
		child.on("close", (code, signal) => {
			ended = true;
			resolve(code ?? 128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 9));
			for (const check of waiting) check();
		});
	});
	const waitFor = (pattern: RegExp, stream: "stdout" | "stderr" = "stdout") =>
		new Promise<RegExpMatchArray>((resolve, reject) => {
			const check = () => {
				const match = text[stream].match(pattern);
				if (match !== null) {
					waiting.delete(check);
					resolve(match);
				} else if (ended) {
					waiting.delete(check);
					reject(new Error(`ended before ${pattern}: ${text.stdout}${text.stderr}`));
				}
			};
			waiting.add(check);
			check();
		});
	return {
		child,
		stdout: () => text.stdout,
		stderr: () => text.stderr,
		waitFor,
		exited,
	};
}

/**
 * Running the CLI and collecting what it prints: in this process ({@link
 * runCli}, {@link cli}), or as a process of the built package, as people
 * run it ({@link runBuilt}, a few at a time).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";

export const ROOT = join(import.meta.dirname, "../..");
/** The built command line (`npm run build`). */
export const BIN = join(ROOT, "dist/cli/bin.cjs");

export interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `theway-context argv…` in `cwd` (default: the repository), in this process. */
export async function runCli(argv: readonly string[], cwd = ROOT, tty = false): Promise<Run> {
	let stdout = "";
	let stderr = "";
	const code = await main(argv, {
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
		},
		cwd,
		stdoutIsTTY: tty,
		stderrIsTTY: tty,
	});
	return { code, stdout, stderr };
}

/** `theway-context argv…` run in `cwd`, in this process. */
export function cli(cwd: string, ...argv: string[]): Promise<Run> {
	return runCli(argv, cwd);
}

/**
 * `theway-context argv… --format json` in `cwd`, in this process: the run
 * and its standard output parsed (undefined when it printed nothing).
 */
export async function runJson<T = ReturnType<typeof JSON.parse>>(
	argv: readonly string[],
	cwd = ROOT,
): Promise<Run & { json: T }> {
	const run = await runCli([...argv, "--format", "json"], cwd);
	return { ...run, json: run.stdout === "" ? undefined : JSON.parse(run.stdout) };
}

/** How many built CLIs {@link runBuilt} runs at once (the others wait their turn). */
const AT_ONCE = 4;
let running = 0;
const waiting: (() => void)[] = [];

/**
 * `theway-context argv…` as a process of the built package, in `cwd`, with
 * `input` on its stdin; one that has not ended in `timeoutMs` is killed
 * (its code then -1).
 */
export async function runBuilt(
	argv: readonly string[],
	{
		cwd = ROOT,
		input = "",
		timeoutMs = 30_000,
	}: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<Run> {
	if (running >= AT_ONCE) await new Promise<void>((turn) => waiting.push(turn));
	running++;
	try {
		return await new Promise<Run>((done, fail) => {
			const child = spawn(process.execPath, [BIN, ...argv], {
				cwd,
				env: { ...process.env, NO_COLOR: "1" },
			});
			let stdout = "";
			let stderr = "";
			child.stdout.on("data", (d: Buffer) => {
				stdout += d.toString();
			});
			child.stderr.on("data", (d: Buffer) => {
				stderr += d.toString();
			});
			const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
			child.on("error", fail);
			child.on("close", (code) => {
				clearTimeout(timer);
				done({ code: code ?? -1, stdout, stderr });
			});
			child.stdin.on("error", () => {}); // a command that reads no stdin may close it first
			child.stdin.end(input);
		});
	} finally {
		running--;
		waiting.shift()?.();
	}
}

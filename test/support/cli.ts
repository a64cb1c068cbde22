/** Running the CLI in-process, collecting what it prints. */
import { join } from "node:path";
import { main } from "../../src/cli/main.js";

export const ROOT = join(import.meta.dirname, "../..");

export interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `theway-context argv…` in `cwd` (default: the repository). */
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

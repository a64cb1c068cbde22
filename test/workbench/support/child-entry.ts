/**
 * Commands run in a child process from their sources (through vite's module
 * runner, as `test/support/cli-child.mjs` does), for what only a process has:
 * standard input. Everything a command may load is imported up front, since
 * the runner closes once this entry is imported.
 */
import "../../../src/templates/compile.js";
import "../../../src/text/terminal.js";
import { inspectCommand } from "../../../src/cli/inspect.js";

const io = {
	stdout: (text: string) => process.stdout.write(text),
	stderr: (text: string) => process.stderr.write(text),
	cwd: process.cwd(),
};

/** `theway-context inspect ARGS…`, its exit code the process's. */
export async function runInspect(args: string[]): Promise<void> {
	process.exitCode = await inspectCommand(args, io);
}

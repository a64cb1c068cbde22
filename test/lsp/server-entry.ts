/**
 * The lsp command with everything it may load imported up front: vite's
 * module runner, which runs the sources in a child process, closes once the
 * entry is imported, so nothing may be imported lazily after that.
 */
import { lspCommand } from "../../src/cli/lsp.js";

const io = {
	stdout: (text: string) => process.stdout.write(text),
	stderr: (text: string) => process.stderr.write(text),
	cwd: process.cwd(),
};

export async function runLsp(args: string[]): Promise<void> {
	process.exitCode = await lspCommand(args, io);
}

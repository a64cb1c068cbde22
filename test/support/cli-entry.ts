/**
 * The serve command with everything it may load imported up front: vite's
 * module runner, which runs the sources in a child process, closes once the
 * entry is imported, so nothing may be imported lazily after that.
 */
import "../../src/templates/compile.js";
import { serveCommand } from "../../src/cli/serve.js";

export async function runServe(args: string[]): Promise<void> {
	const code = await serveCommand(args, {
		stdout: (text) => process.stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		cwd: process.cwd(),
	});
	process.exitCode = code;
}

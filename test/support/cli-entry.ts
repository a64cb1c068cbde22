/**
 * The serve, render and inspect commands with everything they may load imported up front: vite's
 * module runner, which runs the sources in a child process, closes once the
 * entry is imported, so nothing may be imported lazily after that.
 */
import "../../src/templates/compile.js";
import { inspectCommand } from "../../src/cli/inspect.js";
import { renderCommand } from "../../src/cli/render.js";
import { serveCommand } from "../../src/cli/serve.js";
import "../../src/text/terminal.js";

const io = {
	stdout: (text: string) => process.stdout.write(text),
	stderr: (text: string) => process.stderr.write(text),
	cwd: process.cwd(),
};

export async function runServe(args: string[]): Promise<void> {
	process.exitCode = await serveCommand(args, io);
}

export async function runRender(args: string[]): Promise<void> {
	process.exitCode = await renderCommand(args, io);
}

export async function runInspect(args: string[]): Promise<void> {
	process.exitCode = await inspectCommand(args, io);
}

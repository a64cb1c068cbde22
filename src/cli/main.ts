/**
 * The `theway-context` command line. {@link main} takes the arguments and an
 * output sink and returns the exit code; only {@link runMain} touches
 * `process`. Exit codes: 0 success, 1 bad input (the located error on
 * stderr), 2 wrong usage, 70 an internal error (a bug: the stack is printed).
 */
import { ContextError, formatDiagnostic } from "../errors.js";
import type { Io } from "./io.js";
import { isPipeOrFile, isTerminal, writeAll } from "./stdio.js";
import { type UsageError, usageError } from "./usage.js";

export const MAIN_USAGE = `theway-context: compile a theway session log into its context bundle

Usage:
  theway-context render <session.jsonl> [options]        print the context bundle
  theway-context inspect <session.jsonl> [options]       measure each section and message in tokens
  theway-context diff <session|DIR>... --from A --to B   what a template change does to sessions
  theway-context replay <session|DIR>... [--vs V|DIR]    what every model call costs, cached and new
  theway-context eval <session|DIR>... --model P:ID      ask a model again at real calls, under a changed set
  theway-context preview [session.jsonl|DIR]             a live page of the prompt, for editing templates
  theway-context import <file|DIR>... [--out FILE|DIR]   Claude Code and Codex sessions as session logs
  theway-context build [--update] [--watch]              check the templates, fixtures and snapshots
  theway-context serve --stdio                           a sidecar: JSON-RPC 2.0 over stdin/stdout
  theway-context lsp --stdio                             a language server for editing templates
  theway-context new-set [--templates DIR]               copy the newest template set to the next version
  theway-context <command> --help                        help for one command (or: help <command>)
  theway-context --version                               the package's name and version

Exit codes: 0 success, 1 bad input, 2 wrong usage, 70 internal error.
`;

/** A command: its arguments and the process's streams in, an exit code out. */
export type Command = (args: string[], io: Io) => Promise<number>;

/**
 * Each command's module, imported only when that command runs: `--help`
 * loads none, and `render` never loads what `build` needs.
 */
export const COMMANDS: Record<string, () => Promise<Command>> = {
	render: async () => (await import("./render.js")).renderCommand,
	build: async () => (await import("./build.js")).buildCommand,
	serve: async () => (await import("./serve.js")).serveCommand,
	inspect: async () => (await import("./inspect.js")).inspectCommand,
	diff: async () => (await import("./diff.js")).diffCommand,
	replay: async () => (await import("./replay.js")).replayCommand,
	eval: async () => (await import("./eval.js")).evalCommand,
	preview: async () => (await import("./preview.js")).previewCommand,
	lsp: async () => (await import("./lsp.js")).lspCommand,
	import: async () => (await import("./import.js")).importCommand,
	"new-set": async () => (await import("./new-set.js")).newSetCommand,
};

/** Runs the CLI on `argv` (without node and the script). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
	// `help <command>` is `<command> --help` (an unknown one is reported as such).
	const [command, ...rest] =
		argv[0] === "help" && argv[1] !== undefined ? [argv[1], "--help"] : argv;
	try {
		if (command === undefined || command === "--help" || command === "-h" || command === "help") {
			(command === undefined ? io.stderr : io.stdout)(MAIN_USAGE);
			return command === undefined ? 2 : 0;
		}
		if (command === "--version" || command === "-v") {
			const { packageVersion } = await import("./version.js");
			io.stdout(`${packageVersion()}\n`);
			return 0;
		}
		const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
		if (load === undefined) {
			const { nearest } = await import("../text/nearest.js");
			const near = nearest(command, Object.keys(COMMANDS));
			const hint = near === undefined ? "" : ` (did you mean ${near}?)`;
			throw usageError(`unknown command ${JSON.stringify(command)}${hint}`, MAIN_USAGE);
		}
		return await (await load())(rest, io);
	} catch (error) {
		if (error instanceof ContextError && error.code === "usage") {
			io.stderr(
				`theway-context: ${error.reason}\n${synopsis((error as Partial<UsageError>).usage ?? MAIN_USAGE)}`,
			);
			return 2;
		}
		if (error instanceof ContextError) {
			// Paths and session text in a message may hold control characters.
			const { escapeControl } = await import("../text/terminal.js");
			if (error.diagnostics.length === 0)
				io.stderr(`theway-context: ${escapeControl(error.message)}\n`);
			for (const d of error.diagnostics) io.stderr(`${escapeControl(formatDiagnostic(d))}\n`);
			return 1;
		}
		io.stderr(
			`theway-context: internal error (a bug, please report it)\n${(error as Error).stack ?? String(error)}\n`,
		);
		return 70;
	}
}

/**
 * What a usage error shows under its one line: the command's synopsis (its
 * `Usage:` lines, up to the first blank line), and where the rest is.
 */
export function synopsis(usage: string): string {
	const lines = usage.split("\n");
	const start = Math.max(
		0,
		lines.findIndex((l) => l.startsWith("Usage:")),
	);
	const end = lines.indexOf("", start);
	const command = /^Usage: theway-context ([a-z-]+)/.exec(lines[start] ?? "")?.[1];
	const more = `theway-context ${command === undefined ? "" : `${command} `}--help`;
	return `${lines.slice(start, end === -1 ? undefined : end).join("\n")}\n(${more} for more)\n`;
}

/** The process edge: real argv, real standard output and error, real exit code. */
export async function runMain(): Promise<void> {
	const code = await main(process.argv.slice(2), {
		stdout: (text) => writeAll(1, text),
		stderr: (text) => writeAll(2, text),
		cwd: process.cwd(),
		get stdoutIsTTY() {
			return isTerminal(1);
		},
		get stderrIsTTY() {
			return isTerminal(2);
		},
		stdoutIsPipeOrFile: isPipeOrFile(1),
	});
	process.exitCode = code;
}

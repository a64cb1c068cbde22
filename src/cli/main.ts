/**
 * The `theway-context` command line. {@link main} takes the arguments and an
 * output sink and returns the exit code; only {@link runMain} touches
 * `process`. Exit codes: 0 success, 1 bad input (the located error on
 * stderr), 2 wrong usage, 70 an internal error (a bug: the stack is printed);
 * each said in the one voice of voice.ts.
 */
import { ContextError } from "../errors.js";
import { nearest } from "../text/nearest.js";
import { COMMANDS, commandNamed } from "./commands/index.js";
import { commandHelp, mainHelp, synopsis } from "./help.js";
import type { Io } from "./io.js";
import { parseCommand } from "./options.js";
import { isPipeOrFile, isTerminal, writeAll } from "./stdio.js";
import { usageError } from "./usage.js";

/** `theway-context --help`: the list of commands, from their declarations. */
export const MAIN_USAGE = mainHelp(COMMANDS.map((c) => c.spec));

/** Runs the CLI on `argv` (without node and the script). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
	// `help <command>` and `--help <command>` are `<command> --help` (an unknown one is reported as such).
	const asked =
		(argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h") && argv[1] !== undefined;
	const [command, ...rest] = asked ? [argv[1] as string, "--help"] : argv;
	const entry = command === undefined ? undefined : commandNamed(command);
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
		if (entry === undefined) {
			const near = nearest(
				command,
				COMMANDS.map((c) => c.spec.name),
			);
			const hint = near === undefined ? "" : ` (did you mean ${near}?)`;
			throw usageError(`unknown command ${JSON.stringify(command)}${hint}`);
		}
		// Parsed by the declaration before the body loads: help and mistakes cost no body.
		const parsed = parseCommand(entry.spec, rest, io.cwd);
		if (parsed.help) {
			io.stdout(commandHelp(entry.spec));
			return 0;
		}
		return await (await entry.load()).run(parsed, io);
	} catch (error) {
		const voice = await import("./voice.js");
		if (error instanceof ContextError && error.code === "usage") {
			io.stderr(voice.usageText(error, synopsis(entry?.spec ?? COMMANDS.map((c) => c.spec))));
			return 2;
		}
		if (error instanceof ContextError) {
			io.stderr(voice.errorText(error));
			return 1;
		}
		io.stderr(voice.bugText(error));
		return 70;
	}
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

/**
 * A command's body joined to its declaration (options.ts): the command
 * line parses the arguments by the declaration before it loads the body
 * (so `--help` and a usage error load none), then calls {@link
 * DefinedCommand.run} with the parsed values; called as a function, the
 * command parses its arguments itself.
 */
import { commandHelp } from "./help.js";
import type { Io } from "./io.js";
import { type CommandSpec, type Options, type Parsed, parseCommand } from "./options.js";

/** A command: its arguments in, an exit code out; `run` takes them parsed. */
export type DefinedCommand = ((args: readonly string[], io: Io) => Promise<number>) & {
	spec: CommandSpec;
	run: (parsed: Parsed<Options>, io: Io) => Promise<number>;
};

/** A command from its declaration and its body, which gets the values the declaration types. */
export function defineCommand<O extends Options>(
	spec: CommandSpec<O>,
	run: (parsed: Parsed<O>, io: Io) => Promise<number>,
): DefinedCommand {
	const command = async (args: readonly string[], io: Io): Promise<number> => {
		const parsed = parseCommand(spec, args, io.cwd);
		if (!parsed.help) return run(parsed, io);
		io.stdout(commandHelp(spec));
		return 0;
	};
	return Object.assign(command, {
		spec: spec as CommandSpec,
		run: run as (parsed: Parsed<Options>, io: Io) => Promise<number>,
	});
}

/** What a command may touch of the process: two output streams and the working directory. */
import { constants } from "node:buffer";
import { resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { ContextError, type Diagnostic, formatDiagnostic } from "../errors.js";
import { writeJson } from "../text/json-writer.js";
import { nearest } from "../text/nearest.js";
import { escapeControl, escapeJsonControl } from "../text/terminal.js";
import { usageError } from "./usage.js";

export interface Io {
	stdout(text: string): void;
	stderr(text: string): void;
	cwd: string;
	/** Whether stdout is a terminal (colours). */
	stdoutIsTTY?: boolean;
	/** Whether stderr is a terminal (progress lines). */
	stderrIsTTY?: boolean;
	/**
	 * Whether stdout is a pipe, a socket or a file: JSON printed there reaches
	 * a program, not a terminal, and is written without escaping C1 controls.
	 */
	stdoutIsPipeOrFile?: boolean;
}

type Options = NonNullable<ParseArgsConfig["options"]>;
type Parsed<T extends Options> = ReturnType<
	typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
>;

/** `-h`, `--help`: every command takes it. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** The options of the commands that load one session: its branch, its set, its warnings. */
export const SESSION_OPTIONS = {
	leaf: { type: "string" },
	templates: { type: "string" },
	"template-version": { type: "string" },
	strict: { type: "boolean" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	...HELP_OPTION,
} as const;

/**
 * A command from its options, its usage text and its body. The arguments are
 * parsed by `node:util` parseArgs in strict mode (its errors become usage
 * errors), and `--help` prints the usage without running the body.
 */
export function defineCommand<T extends Options & typeof HELP_OPTION>(
	options: T,
	usage: string,
	run: (parsed: Parsed<T>, io: Io) => Promise<number>,
): DefinedCommand {
	const command = async (args: string[], io: Io): Promise<number> => {
		let parsed: Parsed<T>;
		try {
			parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
		} catch (error) {
			throw usageError(
				argsMistake(error as Error & { code?: string }, Object.keys(options), takesFiles(usage)),
				usage,
			);
		}
		const values = parsed.values as { help?: boolean; strict?: boolean; lenient?: boolean };
		if (values.strict === true && values.lenient === true) {
			throw usageError("--strict and --lenient say opposite things: give one", usage);
		}
		if (values.help !== true) return run(parsed, io);
		io.stdout(usage);
		return 0;
	};
	return Object.assign(command, { definition: { options, usage } });
}

/** A command's definition: the options it parses and the usage text that documents them. */
export interface CommandDefinition {
	options: Readonly<Options>;
	usage: string;
}

/** A command, with the definition its reference is generated from. */
export type DefinedCommand = ((args: string[], io: Io) => Promise<number>) & {
	definition: CommandDefinition;
};

/** parseArgs' complaint in a user's terms: the option named, the closest known one suggested. */
function argsMistake(
	error: Error & { code?: string },
	known: readonly string[],
	files: boolean,
): string {
	const option = /'(-[^' ]+)/.exec(error.message)?.[1];
	if (option === undefined) return error.message;
	if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
		const name = option.replace(/^-+/, "").split("=")[0] ?? "";
		const near = nearest(name, known);
		const hint = near === undefined ? "" : ` (did you mean --${near}?)`;
		const file = files ? `; a file whose name starts with "-" goes after "--"` : "";
		return `unknown option ${option}${hint}${file}`;
	}
	if (/ambiguous/.test(error.message)) {
		return `${option} needs a value; to give one that starts with "-", write ${option}=VALUE`;
	}
	if (/argument missing/.test(error.message)) return `${option} needs a value`;
	if (/does not take an argument/.test(error.message)) return `${option} takes no value`;
	return error.message;
}

/** Whether a command's synopsis (its usage's first line) takes files or folders. */
function takesFiles(usage: string): boolean {
	return /<|\[session/.test(usage.split("\n")[0] ?? "");
}

/** The one session log a command takes. */
export function oneSession(positionals: readonly string[], usage: string): string {
	if (positionals.length === 1) return positionals[0] as string;
	throw usageError(
		positionals.length === 0 ? "missing <session.jsonl>" : "expected one session log",
		usage,
	);
}

/** The value of `--flag`, one of `choices`; the first choice when it is not given. */
export function choiceOption<C extends string>(
	value: string | undefined,
	flag: string,
	choices: readonly [C, ...C[]],
	usage: string,
): C {
	if (value === undefined) return choices[0];
	if ((choices as readonly string[]).includes(value)) return value as C;
	const list =
		choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(", ")}`;
	throw usageError(`--${flag} must be ${list}`, usage);
}

/** `--templates DIR` resolved against the working directory, as an option (none when not given). */
export function templatesOption(value: string | undefined, io: Io): { templates?: string } {
	return value === undefined ? {} : { templates: resolve(io.cwd, value) };
}

/** The load options `--leaf` and `--template-version` name, those given only. */
export function branchOptions(values: { leaf?: string; "template-version"?: string }): {
	leaf?: string;
	templateVersion?: string;
} {
	return {
		...(values.leaf === undefined ? {} : { leaf: values.leaf }),
		...(values["template-version"] === undefined
			? {}
			: { templateVersion: values["template-version"] }),
	};
}

/** A loaded session's warnings on stderr, unless `--quiet`. */
export function printWarnings(io: Io, diagnostics: readonly Diagnostic[], quiet?: boolean): void {
	if (quiet !== true) for (const d of diagnostics) printDiagnostic(io, d);
}

/** A diagnostic on stderr, its control characters escaped. */
export function printDiagnostic(io: Io, d: Diagnostic): void {
	io.stderr(`${escapeControl(formatDiagnostic(d))}\n`);
}

/** `--pretty`, for the commands that print JSON. */
export const PRETTY_OPTION = { pretty: { type: "boolean" } } as const;
export const PRETTY_HELP = `  --pretty                 indent the JSON on a pipe or in a file too (on a terminal
                           it is indented; elsewhere it is one line, the same value)`;

/**
 * JSON on stdout, written a chunk at a time: any nesting, any size. For a
 * terminal it is indented, and C1 controls and bidirectional overrides are
 * escaped too (JSON.stringify escapes only C0), the value unchanged; for a
 * program (a pipe, a file) it is one line, as `JSON.stringify` writes it,
 * unless `pretty`.
 */
export function printJson(
	io: Io,
	value: unknown,
	{ file, pretty = false }: { file?: string; pretty?: boolean } = {},
): void {
	const toProgram = io.stdoutIsPipeOrFile === true;
	const write = toProgram
		? (chunk: string) => io.stdout(chunk)
		: (chunk: string) => io.stdout(escapeJsonControl(chunk));
	guardLength(() => {
		writeJson(value, { indent: toProgram && !pretty ? 0 : 2, write });
		io.stdout("\n");
	}, file);
}

/**
 * Runs `fn`; the runtime's "Invalid string length" becomes a located error
 * naming the limit, instead of a crash.
 */
export function guardLength<T>(fn: () => T, file?: string): T {
	try {
		return fn();
	} catch (error) {
		if (!(error instanceof RangeError) || !/string length/i.test(error.message)) throw error;
		throw new ContextError(
			"too_large",
			`the output holds a text longer than the longest string this runtime can hold (${constants.MAX_STRING_LENGTH} characters)`,
			file === undefined ? {} : { file },
			{ cause: error },
		);
	}
}

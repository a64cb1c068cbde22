/**
 * Help texts, made from the commands' declarations (options.ts): a
 * command's `--help`, the synopsis a usage error shows under its line, and
 * the list of commands. Nothing here is written by hand per option, so the
 * help says what the parser takes.
 */
import { type CommandSpec, defaultOf, HELP, type OptionSpec, optionLabel } from "./options.js";

export const PROGRAM = "theway-context";
const WIDTH = 80;
/** The widest option column before the help moves to the next line. */
const MAX_COLUMN = 26;

/** `Usage: theway-context render <session.jsonl> [options]`. */
export function usageLine(spec: CommandSpec): string {
	return `Usage: ${PROGRAM} ${spec.name} ${spec.synopsis}`;
}

/** A command's `--help`: usage line, description, every option with its default, notes. */
export function commandHelp(spec: CommandSpec): string {
	const parts = [
		usageLine(spec),
		"",
		spec.description.trimEnd(),
		"",
		"Options:",
		optionLines(spec),
	];
	if (spec.notes !== undefined) parts.push("", spec.notes.trimEnd());
	return `${parts.join("\n")}\n`;
}

/**
 * What a usage error shows under its one line: the command's usage line
 * (or, with no command, the commands' names), and where the rest is.
 */
export function synopsis(spec: CommandSpec | readonly CommandSpec[]): string {
	if (!("name" in spec)) {
		const names = spec.map((s) => s.name).join(", ");
		return `Usage: ${PROGRAM} <command> [options]\nCommands: ${names}\n(${PROGRAM} --help for more)\n`;
	}
	return `${usageLine(spec)}\n(${PROGRAM} ${spec.name} --help for more)\n`;
}

/** The options block: a column of labels, the help wrapped beside it. */
function optionLines(spec: CommandSpec): string {
	const rows: [string, OptionSpec][] = [...Object.entries(spec.options), ["help", HELP]];
	const labels = rows.map(([name, o]) => optionLabel(name, o));
	const column = Math.min(MAX_COLUMN, Math.max(...labels.map((l) => l.length)) + 3);
	const out: string[] = [];
	rows.forEach(([, o], i) => {
		const label = `  ${labels[i] as string}`;
		const text = wrap(helpText(o), WIDTH - column - 2);
		const first = label.length + 1 < column + 2 ? label.padEnd(column + 2) : undefined;
		const indent = " ".repeat(column + 2);
		if (first === undefined) out.push(label);
		text.forEach((line, k) => {
			out.push(`${k === 0 && first !== undefined ? first : indent}${line}`);
		});
	});
	return out.join("\n");
}

/** An option's help with its default, when it has one. */
export function helpText(o: OptionSpec): string {
	const fallback = defaultOf(o);
	if (fallback === undefined) return o.help;
	return o.help.includes("\n")
		? `${o.help}\n(default: ${fallback})`
		: `${o.help} (default: ${fallback})`;
}

/** `text` in lines of at most `width` characters, breaking at spaces and at each `\n`. */
export function wrap(text: string, width: number): string[] {
	const out: string[] = [];
	for (const paragraph of text.split("\n")) {
		let line = "";
		for (const word of paragraph.split(" ")) {
			if (line !== "" && line.length + 1 + word.length > width) {
				out.push(line);
				line = word;
			} else line = line === "" ? word : `${line} ${word}`;
		}
		out.push(line);
	}
	return out;
}

/** The list of commands, for `theway-context --help`. */
export function mainHelp(specs: readonly CommandSpec[]): string {
	const column = Math.max(...specs.map((s) => s.name.length)) + 3;
	return [
		`${PROGRAM}: compile a theway session log into its context bundle`,
		"",
		`Usage: ${PROGRAM} <command> [options]`,
		"",
		"Commands:",
		...specs.map((s) => `  ${s.name.padEnd(column)}${s.summary}`),
		"",
		`  ${PROGRAM} <command> --help   help for one command (or: help <command>)`,
		`  ${PROGRAM} --version          the package's name and version`,
		"",
		"Exit codes: 0 success, 1 bad input, 2 wrong usage, 70 internal error.",
		"",
	].join("\n");
}

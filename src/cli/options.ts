/**
 * The option layer: each command declares its options once, as data, and
 * parsing, usage errors (exit 2), `--help` (help.ts) and the CLI reference
 * all derive from that declaration, so an option cannot be parsed one way
 * and documented another, and a shared option behaves alike everywhere.
 *
 * A command declares an option as an entry of its `options`, keyed by the
 * long name:
 *
 *     port: { type: "integer", value: "N", min: 0, max: 65535, default: 4770,
 *             help: "the port (0 picks a free one)" },
 *
 * and takes a shared group by spreading it (`...TEMPLATES`, option-groups.ts).
 * Its body gets `values.port` as a number, already checked. Types: `boolean`,
 * `string`, `path` (resolved against the working directory; `exists: "dir"`
 * refuses a folder that is not there), `choice` (the first choice is the
 * default unless `default` says otherwise), `integer` (bounded by `min` and
 * `max`), `number` (at least `min`), `list` (comma-separated). A `path` with `multiple` is repeatable. `required`, `conflicts` and `check` (a
 * mistake given the other values) are usage errors too. `-h, --help` is
 * every command's own.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { nearest } from "../text/nearest.js";
import { usageError } from "./usage.js";

/** What every option declares, whatever its type. */
export interface OptionCommon {
	/** What the option does; `\n` breaks a line where the text should. */
	help: string;
	/** The name of the shared group it comes from (option-groups.ts). */
	group?: string;
	/** Parsing fails without it. */
	required?: boolean;
	/** Another option it cannot go with. */
	conflicts?: string;
	/** A mistake, given all the values (called only when this option is given). */
	check?: (values: Readonly<Record<string, unknown>>) => string | undefined;
	/** The default as the help says it, when `default` cannot (computed, or left to the library). */
	defaultHelp?: string;
}

/** One option's declaration. */
export type OptionSpec = OptionCommon &
	(
		| { type: "boolean"; short?: string }
		| {
				type: "string";
				value: string;
				default?: string;
				/** An empty value means something (else it is refused: a value left out by mistake). */
				empty?: boolean;
		  }
		| {
				type: "path";
				value: string;
				default?: string;
				exists?: "dir" | "any";
				/** Given again and again: the value is every one given. */
				multiple?: boolean;
		  }
		| { type: "choice"; choices: readonly [string, ...string[]]; default?: string }
		| {
				type: "integer";
				value: string;
				min: number;
				max?: number;
				default?: number | (() => number);
		  }
		| { type: "number"; value: string; min: number }
		| { type: "list"; value: string }
	);

/** A command's options, by long name. */
export type Options = Readonly<Record<string, OptionSpec>>;

/** The positional arguments a command takes: their name in the help, and how many. */
export interface ArgsSpec {
	name: string;
	count: "none" | "one" | "optional" | "some";
}

/** A command, declared: what `--help`, the main help and the reference show, and its options. */
export interface CommandSpec<O extends Options = Options> {
	name: string;
	/** One line, for the list of commands. */
	summary: string;
	/** What follows the command's name on its usage line. */
	synopsis: string;
	args: ArgsSpec;
	/** What it does, before the options. */
	description: string;
	options: O;
	/** After the options: exit codes, advice. */
	notes?: string;
}

/** A command's declaration, with its options' types kept for its body. */
export function declareCommand<const O extends Options>(spec: CommandSpec<O>): CommandSpec<O> {
	return spec;
}

/** The value an option's declaration gives the command's body. */
export type ValueOf<S> = S extends { type: "boolean" }
	? boolean
	: S extends { type: "choice"; choices: readonly (infer C)[] }
		? C
		: S extends { type: "integer" } | { type: "number" }
			? S extends { default: number | (() => number) }
				? number
				: number | undefined
			: S extends { type: "list" } | { type: "path"; multiple: true }
				? string[] | undefined
				: S extends { default: string }
					? string
					: string | undefined;

/** Every option's value, by long name. */
export type Values<O extends Options> = { -readonly [K in keyof O]: ValueOf<O[K]> };

/** What parsing gives a command's body. */
export interface Parsed<O extends Options> {
	values: Values<O>;
	positionals: string[];
}

/** `--name`, with the value it takes, as the help shows it. */
export function optionLabel(name: string, spec: OptionSpec): string {
	const short = spec.type === "boolean" && spec.short !== undefined ? `-${spec.short}, ` : "";
	if (spec.type === "boolean") return `${short}--${name}`;
	if (spec.type === "choice") return `--${name} ${spec.choices.join("|")}`;
	return `--${name} ${spec.value}`;
}

/** The default a declaration gives, as words; none for a flag or an option with none. */
export function defaultOf(spec: OptionSpec): string | undefined {
	if (spec.defaultHelp !== undefined) return spec.defaultHelp;
	if (spec.type === "choice") return spec.default ?? spec.choices[0];
	if (spec.type === "integer" && typeof spec.default === "number") return String(spec.default);
	if ((spec.type === "string" || spec.type === "path") && spec.default !== undefined)
		return spec.default;
	return undefined;
}

/** `-h, --help`: every command's, added by the layer. */
export const HELP: OptionSpec = { type: "boolean", short: "h", help: "this help" };

/**
 * Parses `args` by `spec`: every mistake is a usage error naming the
 * option. `help` is true when `-h`/`--help` was given (nothing else is
 * checked then). Paths are resolved against `cwd`.
 */
export function parseCommand<O extends Options>(
	spec: CommandSpec<O>,
	args: readonly string[],
	cwd: string,
): Parsed<O> & { help: boolean } {
	const options: Options = { ...spec.options, help: HELP };
	let parsed: ReturnType<typeof parseArgs>;
	try {
		parsed = parseArgs({
			args: [...args],
			options: Object.fromEntries(
				Object.entries(options).map(([name, o]) => [
					name,
					o.type === "boolean"
						? { type: "boolean", ...(o.short === undefined ? {} : { short: o.short }) }
						: { type: "string", multiple: o.type === "path" && o.multiple === true },
				]),
			),
			allowPositionals: true,
			strict: true,
			tokens: true,
		});
	} catch (error) {
		throw usageError(argsMistake(error as Error & { code?: string }, Object.keys(options), spec));
	}
	// An option of one value given twice: the last would win without a word.
	const seen = new Map<string, string | undefined>();
	for (const token of parsed.tokens ?? []) {
		if (token.kind !== "option" || token.value === undefined) continue;
		const o = options[token.name];
		if (o === undefined || o.type === "boolean" || (o.type === "path" && o.multiple === true))
			continue;
		if (seen.has(token.name)) {
			throw usageError(
				`--${token.name} given twice (${JSON.stringify(seen.get(token.name))} and ${JSON.stringify(token.value)}): give it once`,
			);
		}
		seen.set(token.name, token.value);
	}
	const raw = parsed.values as Record<string, string | string[] | boolean | undefined>;
	const values: Record<string, unknown> = {};
	if (raw.help === true) return { values: values as Values<O>, positionals: [], help: true };
	for (const [name, o] of Object.entries(spec.options)) {
		values[name] = convert(name, o, raw[name], cwd);
	}
	for (const [name, o] of Object.entries(spec.options)) {
		const given = raw[name] !== undefined;
		if (o.required === true && !given) throw usageError(`--${name} is required`);
		if (!given) continue;
		if (o.conflicts !== undefined && raw[o.conflicts] !== undefined) {
			throw usageError(`--${name} and --${o.conflicts} cannot go together: give one`);
		}
		const mistake = o.check?.(values);
		if (mistake !== undefined) throw usageError(mistake);
	}
	checkPositionals(spec, parsed.positionals);
	return { values: values as Values<O>, positionals: parsed.positionals, help: false };
}

/** One option's value from its text, checked and converted (its default when not given). */
function convert(
	name: string,
	o: OptionSpec,
	given: string | string[] | boolean | undefined,
	cwd: string,
): unknown {
	if (o.type === "boolean") return given === true;
	if (Array.isArray(given)) return given.map((one) => convert(name, o, one, cwd));
	const text = given as string | undefined;
	switch (o.type) {
		case "string":
			if (text === "" && o.empty !== true)
				throw usageError(`--${name} needs a value, not an empty one`);
			return text ?? o.default;
		case "list":
			return text
				?.split(",")
				.map((s) => s.trim())
				.filter((s) => s !== "");
		case "choice": {
			if (text === undefined) return o.default ?? o.choices[0];
			if (o.choices.includes(text)) return text;
			const [a, b] = o.choices;
			const list = o.choices.length === 2 ? `${a} or ${b}` : `one of ${o.choices.join(", ")}`;
			const near = nearest(text, o.choices);
			throw usageError(
				`--${name} must be ${list}${near === undefined ? "" : ` (did you mean ${near}?)`}`,
			);
		}
		case "integer": {
			if (text === undefined) return typeof o.default === "function" ? o.default() : o.default;
			const n = Number(text);
			if (
				text.trim() === "" ||
				!Number.isSafeInteger(n) ||
				n < o.min ||
				(o.max !== undefined && n > o.max)
			) {
				const range = o.max === undefined ? `≥ ${o.min}` : `from ${o.min} to ${o.max}`;
				throw usageError(`--${name} must be a whole number ${range}`);
			}
			return n;
		}
		case "number": {
			if (text === undefined) return undefined;
			const n = Number(text);
			if (text.trim() === "" || !Number.isFinite(n) || n < o.min)
				throw usageError(`--${name} must be a number ≥ ${o.min}`);
			return n;
		}
		case "path": {
			if (text === "") throw usageError(`--${name} needs a value, not an empty one`);
			const path = text ?? o.default;
			if (path === undefined) return undefined;
			const full = resolve(cwd, path);
			if (text !== undefined && o.exists !== undefined) checkExists(name, full, o.exists);
			return full;
		}
	}
}

function checkExists(name: string, path: string, kind: "dir" | "any"): void {
	const stat = statSync(path, { throwIfNoEntry: false });
	if (stat === undefined)
		throw usageError(`--${name} ${path}: no such ${kind === "dir" ? "folder" : "file or folder"}`);
	if (kind === "dir" && !stat.isDirectory()) throw usageError(`--${name} ${path}: not a folder`);
}

/** The positionals' count against the declaration. */
function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
	const { name, count } = spec.args;
	const n = positionals.length;
	if (count === "none" && n > 0) {
		throw usageError(`${spec.name} takes no argument (got ${JSON.stringify(positionals[0])})`);
	}
	if ((count === "one" || count === "some") && n === 0) throw usageError(`missing ${name}`);
	if ((count === "one" || count === "optional") && n > 1) {
		throw usageError(`expected one ${name}, got ${n}`);
	}
}

/** The longest known option `name` extends by a word (`tools-file` → `tools`), if any. */
function widest(name: string, known: readonly string[]): string | undefined {
	return known
		.filter((k) => name.startsWith(`${k}-`))
		.reduce<string | undefined>(
			(a, k) => (a === undefined || k.length > a.length ? k : a),
			undefined,
		);
}

/** parseArgs' complaint in a user's terms: the option named, the closest known one suggested. */
function argsMistake(
	error: Error & { code?: string },
	known: readonly string[],
	spec: CommandSpec,
): string {
	const option = /'(-[^' ]+)/.exec(error.message)?.[1];
	if (option === undefined) return error.message;
	if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
		const name = option.replace(/^-+/, "").split("=")[0] ?? "";
		const near = nearest(name, known) ?? widest(name, known);
		const hint = near === undefined ? "" : ` (did you mean --${near}?)`;
		const files = spec.args.count !== "none";
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

/**
 * What a command may touch of the process (two output streams and the
 * working directory), and what the commands print through it on stdout:
 * JSON (stderr's diagnostics are voice.ts's).
 */
import { constants } from "node:buffer";
import {
	accessSync,
	existsSync,
	constants as fs,
	readFileSync,
	realpathSync,
	statSync,
} from "node:fs";
import { dirname } from "node:path";
import { ContextError } from "../errors.js";
import { ioError } from "../log/read.js";
import { writeJson } from "../text/json-writer.js";
import { escapeJsonControl } from "../text/terminal.js";
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

/** The load options `--leaf` and `--template-version` name, those given only. */
export function branchOptions(values: {
	leaf?: string | undefined;
	"template-version"?: string | undefined;
}): {
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

/**
 * `--template-version V` (or another option naming a set) against the sets
 * of the templates folder: one it does not hold is wrong usage (exit 2),
 * not bad input, as a session pinning one would be.
 */
export function checkSetOption(
	registry: { check(version: string): void },
	version: string | undefined,
	option = "--template-version",
): void {
	if (version === undefined) return;
	try {
		registry.check(version);
	} catch (error) {
		if (!(error instanceof ContextError) || error.code !== "unknown_template_version") throw error;
		throw usageError(`${option} ${version}: ${error.reason}`);
	}
}

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

/** The text of the file at `path` an option names; what it is (`the tools manifest`) says why it could not be read. */
export function readOptionFile(path: string, what: string): string {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		throw ioError(path, error, `cannot read ${what}`);
	}
}

/**
 * Refuses an output path that is one of the session files the command
 * reads (links followed): `option FILE` would write over a session log.
 */
export function checkNotRead(option: string, file: string, reads: readonly string[]): void {
	const real = (path: string) => {
		try {
			return realpathSync(path);
		} catch {
			return path;
		}
	};
	const out = real(file);
	const source = reads.find((f) => real(f) === out);
	if (source !== undefined)
		throw usageError(
			`${option} ${file} would write over the session log ${source}, which this command reads: write it elsewhere`,
		);
}

/**
 * Fails now, not after the work, when `file` could not be written (its
 * folder missing or read-only, or a folder in its place): `what` says what
 * it was to be, as the error would.
 */
export function checkWritable(file: string, what: string): void {
	try {
		if (existsSync(file) && statSync(file).isDirectory())
			throw Object.assign(new Error(), { code: "EISDIR" });
		if (!statSync(dirname(file)).isDirectory())
			throw Object.assign(new Error(), { code: "ENOTDIR" });
		accessSync(existsSync(file) ? file : dirname(file), fs.W_OK);
	} catch (error) {
		throw ioError(file, error, what);
	}
}

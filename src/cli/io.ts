/** What a command may touch of the process: two output streams and the working directory. */
import { constants } from "node:buffer";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { ContextError, type Diagnostic, formatDiagnostic, usageError } from "../errors.js";
import { writeJson } from "../render/json-writer.js";
import { escapeControl, escapeJsonControl } from "../render/terminal.js";

export interface Io {
	stdout(text: string): void;
	stderr(text: string): void;
	cwd: string;
	/** Whether stdout is a terminal (colours). */
	stdoutIsTTY?: boolean;
	/** Whether stderr is a terminal (progress lines). */
	stderrIsTTY?: boolean;
}

/** `node:util` parseArgs in strict mode; its errors become usage errors. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
	args: readonly string[],
	options: T,
	usage: string,
): ReturnType<
	typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
> {
	try {
		return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
	} catch (error) {
		throw usageError((error as Error).message, usage);
	}
}

/** A diagnostic on stderr, its control characters escaped. */
export function printDiagnostic(io: Io, d: Diagnostic): void {
	io.stderr(`${escapeControl(formatDiagnostic(d))}\n`);
}

/**
 * Pretty JSON on stdout, written a chunk at a time: any nesting, any size.
 * C1 controls are escaped too (JSON.stringify escapes only C0), the value
 * unchanged.
 */
export function printJson(io: Io, value: unknown, file?: string): void {
	guardLength(() => {
		writeJson(value, { indent: 2, write: (chunk) => io.stdout(escapeJsonControl(chunk)) });
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

/** What a command may touch of the process: two output streams and the working directory. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { usageError } from "../errors.js";

export interface Io {
	stdout(text: string): void;
	stderr(text: string): void;
	cwd: string;
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

/** What a command may touch of the process: two output streams and the working directory. */
import { type ParseArgsConfig, parseArgs } from "node:util";

export interface Io {
	stdout(text: string): void;
	stderr(text: string): void;
	cwd: string;
}

/** Wrong usage: exit 2 with the command's usage text. */
export class UsageError extends Error {
	constructor(
		message: string,
		readonly usage: string,
	) {
		super(message);
	}
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
		throw new UsageError((error as Error).message, usage);
	}
}

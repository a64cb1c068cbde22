/**
 * Wrong usage of the command line: an error of code `usage` that carries the
 * usage text of the command that was misused, so the command line can print
 * that command's synopsis under the one line that matters (exit 2). It is
 * the command line's own: the library never throws it.
 */
import { ContextError } from "../errors.js";

export class UsageError extends ContextError {
	constructor(
		reason: string,
		/** The usage text of the command that was misused. */
		readonly usage: string,
	) {
		super("usage", reason);
	}
}

/** Wrong usage of a command, with its usage text. */
export function usageError(message: string, usage: string): UsageError {
	return new UsageError(message, usage);
}

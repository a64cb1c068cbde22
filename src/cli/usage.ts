/**
 * Wrong usage of the command line: an error of code `usage` (exit 2). The
 * command line prints its one line, then the synopsis of the command that
 * was misused. It is the command line's own: the library never throws it.
 */
import { ContextError } from "../errors.js";

/** Wrong usage of a command: what is wrong, in one line. */
export function usageError(message: string): ContextError {
	return new ContextError("usage", message);
}

/**
 * Reading a whole small file an option names (a price table, a README): it
 * must be a regular file. A FIFO would wait for a writer that may never come,
 * so it is opened without blocking and refused at once, as is a socket, a
 * device or a folder, with a located `ContextError("io")`.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { ContextError } from "../errors.js";
import { ioError } from "./read.js";

/** What a file that is not a regular one is, for messages. */
export function kindOf(stat: Stats): string {
	if (stat.isDirectory()) return "a directory";
	if (stat.isFIFO()) return "a FIFO";
	if (stat.isSocket()) return "a socket";
	if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
	return "a special file";
}

/**
 * The UTF-8 text of `file`, `what` saying what it is for in errors
 * ("cannot read the price table"). Refuses anything but a regular file
 * before reading a byte.
 */
export function readRegularText(file: string, what: string): string {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		throw ioError(file, error, what);
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) {
			throw new ContextError("io", `${what} (it is ${kindOf(stat)}, not a regular file)`, {
				file,
			});
		}
		return readFileSync(fd, "utf8");
	} catch (error) {
		if (error instanceof ContextError) throw error;
		throw ioError(file, error, what);
	} finally {
		closeSync(fd);
	}
}

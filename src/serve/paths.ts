/**
 * What a `load`'s path may be, checked before the file is opened: inside
 * the roots the sidecar serves (by its real path), and a regular file (a
 * FIFO would wait for a writer and stall every session). Its identity
 * (device, inode, size) goes with the reply's cursor.
 */
import { realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { ContextError } from "../errors.js";
import { ioError } from "../log/read.js";
import type { FileStamp } from "./cursors.js";

/** A path outside the roots the sidecar serves: -32003. */
export class PathRefused extends Error {
	constructor(readonly file: string) {
		super(`Path refused: ${file} is outside the folders this sidecar serves (--root)`);
	}
}

/**
 * Refuses `file` unless its real path (symlinks and `..` resolved; for a
 * file that does not exist yet, its folder's) lies inside one of `roots`.
 */
export function checkRoots(file: string, roots: readonly string[]): void {
	let real: string;
	try {
		real = realpathSync(file);
	} catch {
		try {
			real = join(realpathSync(dirname(file)), basename(file));
		} catch {
			throw new PathRefused(file); // a folder that does not exist is in no root
		}
	}
	const inside = roots.some((root) => {
		const rel = relative(root, real);
		return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
	});
	if (!inside) throw new PathRefused(file);
}

/**
 * The file's identity; refuses what is not a regular file before it is
 * opened (opening a FIFO would wait for a writer, and stall every session).
 */
export function stampOf(file: string): FileStamp {
	let stat: ReturnType<typeof statSync>;
	try {
		stat = statSync(file, { throwIfNoEntry: false });
	} catch (error) {
		throw ioError(file, error); // a path through a file, a symlink loop, a name too long
	}
	if (stat === undefined) return { dev: -1, ino: -1, size: 0 }; // the load names the missing file
	if (!stat.isFile() && !stat.isDirectory()) {
		throw new ContextError(
			"io",
			"cannot read the session log (not a regular file: a FIFO, socket or device)",
			{ file },
		);
	}
	return { dev: stat.dev, ino: stat.ino, size: stat.size };
}

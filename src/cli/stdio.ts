/**
 * The process's standard output and error, written with blocking writes:
 * no stream. Node's `process.stdout` and the stream modules behind it cost a
 * cold command a few milliseconds to set up, and a write there is a blocking
 * write on Linux anyway; here nothing is left buffered at exit, and stdout
 * and stderr keep the order they were written in.
 */
import { fstatSync, statSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { ioError } from "../log/read.js";

const NAMES: Record<number, string> = { 1: "<stdout>", 2: "<stderr>" };
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes `text` whole to `fd`. A non-blocking pipe that is full is waited
 * for; a reader that stopped early (`| head`, EPIPE) ends the process
 * quietly, with the exit code set so far; any other failure (a full disk)
 * is a located `io` error.
 */
export function writeAll(fd: number, text: string): void {
	const bytes = Buffer.from(text, "utf8");
	for (let at = 0; at < bytes.length; ) {
		try {
			at += writeSync(fd, bytes, at, bytes.length - at);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "EAGAIN") {
				Atomics.wait(SLEEP, 0, 0, 1);
				continue;
			}
			if (code === "EPIPE") process.exit(process.exitCode ?? 0);
			throw ioError(NAMES[fd] ?? `fd ${fd}`, error, "cannot write the output");
		}
	}
}

/** Whether `fd` is a terminal (`node:tty` is loaded only when asked: it loads the stream modules). */
export function isTerminal(fd: number): boolean {
	const { isatty } = createRequire(import.meta.url)("node:tty") as typeof import("node:tty");
	return isatty(fd);
}

/**
 * Whether `fd` is a pipe, a socket, a regular file or `/dev/null`: what is
 * written there reaches no terminal as it is.
 */
export function isPipeOrFile(fd: number): boolean {
	try {
		const stat = fstatSync(fd);
		if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return true;
		return stat.isCharacterDevice() && stat.rdev === statSync("/dev/null").rdev;
	} catch {
		return false;
	}
}

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
	// The text as it is (no buffer made here); a write cut short goes on from bytes.
	const written = attempt(fd, text);
	// Fewer bytes than characters is cut short for sure; else the UTF-8 length tells.
	if (written >= text.length && written === Buffer.byteLength(text)) return;
	const bytes = Buffer.from(text, "utf8");
	for (let at = written; at < bytes.length; ) at += attempt(fd, bytes, at);
}

/** One write; 0 while a non-blocking pipe is full (after a short wait). */
function attempt(fd: number, data: string | Buffer, at = 0): number {
	try {
		return typeof data === "string"
			? writeSync(fd, data)
			: writeSync(fd, data, at, data.length - at);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EAGAIN") {
			Atomics.wait(SLEEP, 0, 0, 1);
			return 0;
		}
		if (code === "EPIPE") process.exit(process.exitCode ?? 0);
		throw ioError(NAMES[fd] ?? `fd ${fd}`, error, "cannot write the output");
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

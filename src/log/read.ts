/**
 * The log stage's file system edge: opening a session (a file, a FIFO, a
 * device or `-` for standard input), reading it in bounded chunks, telling an
 * append from a replaced file, and reading lines back by offset. The file is
 * opened read-only and never written. Every failure of the file system is a
 * located `ContextError("io")`, never a bare Node error.
 */

import { closeSync, constants, fstatSync, openSync, read, readSync, type Stats } from "node:fs";
import { ContextError } from "../errors.js";
import { BufferPool } from "./buffer-pool.js";

const CHUNK_BYTES = 4 * 1024 * 1024;
/** The least a read asks for, whatever size the file claims (`/proc` files say 0). */
const MIN_CHUNK_BYTES = 64 * 1024;
/** The first bytes of a file, kept to recognise it on the next read. */
const HEAD_BYTES = 4096;
/** How long a stream that gave no byte yet may stay silent (a FIFO nobody writes to). */
export const DEFAULT_PIPE_TIMEOUT_MS = 10_000;

/** The name standard input goes by, as a path and in messages. */
export const STDIN = "-";
const STDIN_NAME = "<stdin>";
const DEV_STDIN = "/dev/stdin";

/** What identifies a file's content between two reads. */
export interface FileIdentity {
	dev: number;
	ino: number;
	size: number;
	mtimeMs: number;
	/** The file's first bytes (up to 4 KiB) when it was read. */
	head: Buffer;
}

/** An open session source. */
export interface Source {
	fd: number;
	/** The name for messages: the path, or `<stdin>`. */
	name: string;
	stat: Stats;
	/** A regular file: positioned reads, kept open for incremental reloads. Else a stream, read once. */
	regular: boolean;
}

/** The name `path` goes by in messages. */
export function displayName(path: string): string {
	return path === STDIN ? STDIN_NAME : path;
}

/** A file system failure, named. */
export function ioError(
	name: string,
	error: unknown,
	what = "cannot read the session log",
): ContextError {
	const code = (error as NodeJS.ErrnoException).code;
	const detail = code === undefined ? (error as Error).message : describeErrno(code);
	return new ContextError("io", `${what} (${detail})`, { file: name }, { cause: error });
}

function describeErrno(code: string): string {
	const words: Record<string, string> = {
		ENOENT: "no such file",
		EACCES: "permission denied",
		EPERM: "permission denied",
		ELOOP: "too many symbolic links: a symlink loop?",
		ENOTDIR: "a part of the path is not a folder",
		ENAMETOOLONG: "the name is too long",
		EISDIR: "it is a directory",
		EIO: "an input/output error of the device",
		ENXIO: "no such device or address (a socket?)",
		ENOSPC: "no space left on the device",
		EBADF: "the file descriptor is not open",
	};
	const word = words[code];
	return word === undefined ? code : `${code}: ${word}`;
}

/** Opens `path` (or standard input for `-`) read-only, without blocking on a FIFO. */
export function openSource(path: string): Source {
	const name = displayName(path);
	let fd = 0;
	// Standard input is read from fd 0 itself: /dev/stdin cannot be opened when it is a socket.
	if (path !== STDIN && path !== DEV_STDIN) {
		try {
			fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
		} catch (error) {
			throw ioError(name, error);
		}
	}
	let stat: Stats;
	try {
		stat = fstatSync(fd);
	} catch (error) {
		if (fd !== 0) closeSync(fd);
		throw ioError(name, error);
	}
	const source = { fd, name, stat, regular: stat.isFile() };
	if (stat.isDirectory()) {
		closeSource(source);
		throw new ContextError("io", "cannot read the session log (it is a directory)", { file: name });
	}
	return source;
}

export function closeSource(source: Source): void {
	if (source.fd === 0) return; // standard input stays open
	try {
		closeSync(source.fd);
	} catch {
		// Nothing was written: a failed close loses nothing.
	}
}

/** Reads into `buffer` at `position` (null: the stream's next bytes); errors named. */
function readAt(source: Source, buffer: Buffer, length: number, position: number | null): number {
	try {
		return readSync(source.fd, buffer, 0, length, position);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EAGAIN") return -1;
		throw ioError(source.name, error);
	}
}

function readAtAsync(
	source: Source,
	buffer: Buffer,
	length: number,
	position: number | null,
): Promise<number> {
	return new Promise((resolve, reject) => {
		read(source.fd, buffer, 0, length, position, (error, n) => {
			if (error === null) resolve(n);
			else if (error.code === "EAGAIN") resolve(-1);
			else reject(ioError(source.name, error));
		});
	});
}

/** The identity of a regular file as it is now (its head read from disk). */
export function identify(source: Source): FileIdentity {
	const { dev, ino, size, mtimeMs } = source.stat;
	const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
	const n = head.length === 0 ? 0 : readAt(source, head, head.length, 0);
	return { dev, ino, size, mtimeMs, head: head.subarray(0, Math.max(n, 0)) };
}

/**
 * Whether the file behind `source` is still the one `before` identified,
 * grown or not, holding `check` just before `offset`: the same device and
 * inode, not shorter, the same first bytes, the same bytes before the read
 * position, and, at the same size, not modified since. A rewrite of the
 * middle that keeps all of these is beyond what is checked.
 */
export function isSameFile(
	source: Source,
	before: FileIdentity,
	offset: number,
	check: Buffer,
): boolean {
	const { dev, ino, size, mtimeMs } = source.stat;
	if (dev !== before.dev || ino !== before.ino || size < before.size) return false;
	if (size === before.size && mtimeMs !== before.mtimeMs) return false;
	if (!sameBytes(source, before.head, 0)) return false;
	return sameBytes(source, check, offset - check.length);
}

function sameBytes(source: Source, expected: Buffer, position: number): boolean {
	if (expected.length === 0) return true;
	const seen = Buffer.alloc(expected.length);
	return readAt(source, seen, seen.length, position) === seen.length && seen.equals(expected);
}

/** Up to `length` bytes just before `offset`: the check for a later {@link isSameFile}. */
export function readBefore(source: Source, offset: number, length = 64): Buffer {
	const start = Math.max(0, offset - length);
	const out = Buffer.alloc(offset - start);
	const n = out.length === 0 ? 0 : readAt(source, out, out.length, start);
	return out.subarray(0, Math.max(n, 0));
}

/** The buffers this thread reads chunks into. */
const CHUNKS = new BufferPool();

/**
 * Reads a regular file from `offset` to its end, chunk by chunk, into one
 * buffer this thread reuses (a fresh buffer's every page is a fault, and a
 * fault is dear on some machines): `onChunk` must copy what it keeps, or
 * call `keep` to take the chunk's buffer as it is (the read goes on into
 * another; the taker gives it back with {@link giveChunk}).
 * Returns the offset reached.
 */
export function readFileFrom(
	source: Source,
	offset: number,
	onChunk: (chunk: Buffer, keep: () => void) => void,
): number {
	let buffer = CHUNKS.take(chunkSize(source.stat.size - offset));
	let kept = false;
	const keep = () => {
		kept = true;
	};
	try {
		let position = offset;
		for (;;) {
			const n = readAt(source, buffer, buffer.length, position);
			if (n <= 0) return position;
			position += n;
			onChunk(buffer.subarray(0, n), keep);
			if (kept) {
				kept = false;
				buffer = CHUNKS.take(chunkSize(source.stat.size - position));
			}
		}
	} finally {
		CHUNKS.give(buffer);
	}
}

/** Gives back a chunk's buffer {@link readFileFrom} let its reader keep. */
export function giveChunk(chunk: Uint8Array): void {
	CHUNKS.give(chunk);
}

/** {@link readFileFrom}, asynchronously. */
export async function readFileFromAsync(
	source: Source,
	offset: number,
	onChunk: (chunk: Buffer) => void,
): Promise<number> {
	const buffer = Buffer.allocUnsafe(chunkSize(source.stat.size - offset));
	let position = offset;
	for (;;) {
		const n = await readAtAsync(source, buffer, buffer.length, position);
		if (n <= 0) return position;
		position += n;
		onChunk(buffer.subarray(0, n));
	}
}

function chunkSize(remaining: number): number {
	return Math.min(CHUNK_BYTES, Math.max(remaining, MIN_CHUNK_BYTES));
}

/**
 * Reads a stream (a pipe, a FIFO, a device) to its end, chunk by chunk,
 * never by position. Until its first byte, it waits at most `timeoutMs`
 * (a FIFO with no writer); once bytes flow, it reads until the writer closes.
 */
export function readStream(
	source: Source,
	onChunk: (chunk: Buffer) => void,
	timeoutMs: number,
): void {
	const buffer = Buffer.allocUnsafe(MIN_CHUNK_BYTES);
	const waiting = new Waiting(source, timeoutMs);
	for (;;) {
		const n = readAt(source, buffer, buffer.length, null);
		if (n > 0) {
			waiting.got();
			onChunk(buffer.subarray(0, n));
		} else if (waiting.more(n)) {
			Atomics.wait(SLEEP, 0, 0, waiting.delay);
		} else {
			return;
		}
	}
}

/** {@link readStream}, asynchronously. */
export async function readStreamAsync(
	source: Source,
	onChunk: (chunk: Buffer) => void,
	timeoutMs: number,
): Promise<void> {
	const buffer = Buffer.allocUnsafe(MIN_CHUNK_BYTES);
	const waiting = new Waiting(source, timeoutMs);
	for (;;) {
		const n = await readAtAsync(source, buffer, buffer.length, null);
		if (n > 0) {
			waiting.got();
			onChunk(buffer.subarray(0, n));
		} else if (waiting.more(n)) {
			await new Promise((resolve) => setTimeout(resolve, waiting.delay));
		} else {
			return;
		}
	}
}

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** When a stream read that gave nothing should wait and try again. */
class Waiting {
	private readonly start = Date.now();
	private started = false;
	readonly delay = 10;
	constructor(
		private readonly source: Source,
		private readonly timeoutMs: number,
	) {}
	got(): void {
		this.started = true;
	}
	/** After a read of `n` (0: end of stream, -1: nothing yet): wait for more, end, or fail. */
	more(n: number): boolean {
		// A FIFO opened without blocking reads as ended until a writer opens it.
		const noWriterYet =
			n === 0 && !this.started && this.source.stat.isFIFO() && this.source.fd !== 0;
		if (n === 0 && !noWriterYet) return false;
		if (this.started) return true; // a writer is there and slow
		if (Date.now() - this.start < this.timeoutMs) return true;
		throw new ContextError(
			"io",
			`nothing to read from the pipe after ${this.timeoutMs} ms (no writer?)`,
			{ file: this.source.name },
		);
	}
}

/** Spans closer than this are read together, in one call. */
const MERGE_GAP = 64 * 1024;

/**
 * The texts of the lines at `spans` (sorted by offset), read back from a
 * regular file: nearby spans are read in one call, so a contiguous tail
 * costs one read. A file that no longer holds them is `file_replaced`.
 */
export function readSpans(
	source: Source,
	spans: readonly { offset: number; length: number }[],
): string[] {
	const out: string[] = [];
	for (let k = 0; k < spans.length; ) {
		const first = spans[k] as { offset: number; length: number };
		let end = first.offset + first.length;
		let m = k + 1;
		for (; m < spans.length; m++) {
			const next = spans[m] as { offset: number; length: number };
			if (next.offset - end > MERGE_GAP) break;
			end = Math.max(end, next.offset + next.length);
		}
		const buffer = Buffer.allocUnsafe(end - first.offset);
		if (readAt(source, buffer, buffer.length, first.offset) !== buffer.length) {
			throw new ContextError("file_replaced", "the session log shrank while it was open", {
				file: source.name,
			});
		}
		for (; k < m; k++) {
			const span = spans[k] as { offset: number; length: number };
			const start = span.offset - first.offset;
			out.push(buffer.toString("utf8", start, start + span.length));
		}
	}
	return out;
}

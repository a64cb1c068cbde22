/**
 * The log stage's file system edge: reading a session file, whole or from an
 * offset, in bounded chunks. The file is opened read-only and never written.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ContextError } from "../errors.js";

const CHUNK_BYTES = 4 * 1024 * 1024;

/** What identifies a file's content between two reads. */
export interface FileState {
	dev: number;
	ino: number;
	size: number;
}

/** Opens `path` read-only; an error names the file. */
function open(path: string): number {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch (error) {
		throw new ContextError(
			"io",
			`cannot read the session log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
			{
				file: path,
			},
			{ cause: error },
		);
	}
	if (fstatSync(fd).isDirectory()) {
		closeSync(fd);
		throw new ContextError("io", "cannot read the session log (it is a directory)", { file: path });
	}
	return fd;
}

/** What a resumed read expects to find: the same file, grown, with the same bytes before the offset. */
export interface Expected {
	state: FileState;
	check: Buffer;
}

/**
 * Reads `path` from byte `offset` to its current end, handing each chunk to
 * `onChunk` in order. Returns the file's state as read. With `expected`, reads
 * nothing and returns `checked: false` unless the file is the same one, not
 * shorter, and still holds `expected.check` just before `offset`.
 */
export function readFrom(
	path: string,
	offset: number,
	onChunk: (chunk: Buffer) => void,
	expected?: Expected,
): FileState & { checked: boolean } {
	const fd = open(path);
	try {
		const stat = fstatSync(fd);
		const state = { dev: stat.dev, ino: stat.ino, size: stat.size };
		if (expected !== undefined && !isSameFile(fd, state, offset, expected)) {
			return { ...state, checked: false };
		}
		const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(stat.size - offset, 1)));
		let position = offset;
		for (;;) {
			const n = readSync(fd, buffer, 0, buffer.length, position);
			if (n === 0) break;
			position += n;
			onChunk(buffer.subarray(0, n));
		}
		return { ...state, size: position, checked: true };
	} finally {
		closeSync(fd);
	}
}

function isSameFile(fd: number, state: FileState, offset: number, expected: Expected): boolean {
	const { state: before, check } = expected;
	if (state.dev !== before.dev || state.ino !== before.ino || state.size < before.size)
		return false;
	if (check.length === 0) return true;
	const seen = Buffer.alloc(check.length);
	const n = readSync(fd, seen, 0, check.length, offset - check.length);
	return n === check.length && seen.equals(check);
}

/** Up to `length` bytes just before `offset`: the check for a later {@link readFrom}. */
export function readBefore(path: string, offset: number, length = 64): Buffer {
	const fd = open(path);
	try {
		const start = Math.max(0, offset - length);
		const out = Buffer.alloc(offset - start);
		readSync(fd, out, 0, out.length, start);
		return out;
	} finally {
		closeSync(fd);
	}
}

/** Spans closer than this are read together, in one call. */
const MERGE_GAP = 64 * 1024;

/**
 * The texts of the lines at `spans` (sorted by offset), read back from `path`:
 * nearby spans are read in one call, so a contiguous tail costs one read.
 */
export function readSpans(
	path: string,
	spans: readonly { offset: number; length: number }[],
): string[] {
	const fd = open(path);
	try {
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
			const n = readSync(fd, buffer, 0, buffer.length, first.offset);
			if (n !== buffer.length) {
				throw new ContextError("file_replaced", "the session log shrank while it was open", {
					file: path,
				});
			}
			for (; k < m; k++) {
				const span = spans[k] as { offset: number; length: number };
				const start = span.offset - first.offset;
				out.push(buffer.toString("utf8", start, start + span.length));
			}
		}
		return out;
	} finally {
		closeSync(fd);
	}
}

const COMPACTION = Buffer.from('"type":"compaction"');

/**
 * Whether the log at `path` seems to hold a compaction near its end: a
 * backwards scan for its type tag. Only a hint for how much of a huge log to keep in memory: a
 * wrong answer costs time or memory, never correctness.
 */
export function seemsCompacted(path: string): boolean {
	const fd = open(path);
	try {
		const size = fstatSync(fd).size;
		const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
		// Only the last quarter (at least 64 MiB): a compaction before that leaves most of the log in context.
		const stop = Math.max(0, size - Math.max(size / 4, 64 * 1024 * 1024));
		for (let end = size; end > stop; ) {
			const start = Math.max(0, end - buffer.length);
			const n = readSync(fd, buffer, 0, end - start, start);
			if (buffer.subarray(0, n).includes(COMPACTION)) return true;
			// Overlap the next chunk a little, so a tag cut in two is still seen.
			end = start <= stop ? stop : start + COMPACTION.length;
		}
		return false;
	} finally {
		closeSync(fd);
	}
}

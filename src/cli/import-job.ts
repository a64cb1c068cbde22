/**
 * One file of `theway-context import`: read the source, convert it, write
 * the log where it was asked for. Every expected failure comes back as a
 * located diagnostic, never thrown, so a folder run goes on with the others.
 */

import {
	closeSync,
	fstatSync,
	openSync,
	readFileSync,
	readSync,
	writeSync,
	writevSync,
} from "node:fs";
import { dirname } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { makeFolders } from "../folders.js";
import type { RecordCounts, SourceFormat } from "../import/accounting.js";
import { importSession } from "../import/convert.js";
import { BufferPool } from "../log/buffer-pool.js";
import { strictRefusal } from "../log/diagnostics.js";
import { ioError } from "../log/read.js";
import { ContextService } from "../service/context-service.js";

/** What to do with one source file. */
export interface ImportJob {
	file: string;
	/** Where to write the log; undefined: return its text (standard output). */
	out: string | undefined;
	from: "auto" | SourceFormat;
	strict: boolean;
}

/** What became of one source file. */
export interface ImportOutcome {
	file: string;
	format?: SourceFormat;
	/** The log's text, when the job had no `out`. */
	text?: string;
	warnings: Diagnostic[];
	counts: RecordCounts;
	/** Set when the file could not be imported. */
	error?: Diagnostic;
}

/**
 * The memory a thread's jobs reuse, one job after the other (a fresh
 * buffer's every page is a fault, and a fault is dear on some machines):
 * the source's bytes, and the buffers the log is written from.
 */
const SOURCE = new BufferPool();
const OUT = new BufferPool();

/** Runs one job; failures are returned as `error`. */
export function runImportJob(job: ImportJob): ImportOutcome {
	let bytes: Buffer | undefined;
	try {
		try {
			bytes = readSource(job.file);
		} catch (error) {
			throw ioError(job.file, error, "cannot read the source");
		}
		const imported = importSession(bytes, job.file, { from: job.from, alloc: OUT.take });
		// A log already in our format passes as it is, read as every command reads it:
		// what a tolerant read skips or repairs is warned, and --strict refuses it.
		const result =
			imported.format === "theway"
				? { ...imported, warnings: ownFormatWarnings(job.file, job.strict) }
				: imported;
		const refusal = job.strict ? strictRefusal(result.warnings, job.file) : undefined;
		if (refusal !== undefined) throw refusal;
		if (job.out !== undefined) {
			try {
				makeFolders(dirname(job.out));
				writeAll(job.out, result.bytes());
			} catch (error) {
				throw ioError(job.out, error, "cannot write the log");
			}
		}
		return {
			file: job.file,
			format: result.format,
			...(job.out === undefined ? { text: result.text } : {}),
			warnings: result.warnings,
			counts: result.counts,
		};
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		return { file: job.file, warnings: [], counts: {}, error: error.toDiagnostic() };
	} finally {
		if (bytes !== undefined) SOURCE.give(bytes);
		OUT.recycle();
	}
}

/** A source file's bytes, read into the thread's reused buffer (a stream or device as Node reads it). */
function readSource(file: string): Buffer {
	const fd = openSync(file, "r");
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) return readFileSync(fd);
		const bytes = SOURCE.take(stat.size);
		let n = 0;
		while (n < bytes.length) {
			const read = readSync(fd, bytes, n, bytes.length - n, n);
			if (read === 0) break;
			n += read;
		}
		return bytes.subarray(0, n);
	} finally {
		closeSync(fd);
	}
}

/** The work of `import` on one file, for the corpus pool (every thread the same). */
export function createTask(_init: null): (job: ImportJob) => ImportOutcome {
	return runImportJob;
}

/**
 * The warnings of a log in our own format, read as `render` reads it (throws
 * under `strict`), with the package's precompiled sets: an import never
 * loads the template compiler.
 */
function ownFormatWarnings(file: string, strict: boolean): Diagnostic[] {
	const service = new ContextService({ strict });
	return service
		.loadSync(file, { virtualize: false })
		.meta.diagnostics.filter((d) => d.severity === "warning");
}

/** Writes `chunks` one after the other as the file `path` (created or truncated). */
function writeAll(path: string, chunks: readonly Uint8Array[]): void {
	const fd = openSync(path, "w");
	try {
		const size = chunks.reduce((sum, c) => sum + c.length, 0);
		const done = writevSync(fd, chunks as Uint8Array[]);
		// A short write (a signal, a full disk) goes on where it stopped, or fails as writeFileSync would.
		const rest = done < size ? Buffer.concat(chunks).subarray(done) : undefined;
		for (let at = 0; rest !== undefined && at < rest.length; ) at += writeSync(fd, rest, at);
	} finally {
		closeSync(fd);
	}
}

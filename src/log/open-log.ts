/**
 * An open session log: the byte side of a session. It owns the file (or
 * stream), its identity, the read offset, incremental reads of what was
 * appended, the entries' objects and their retain budget, and reading
 * entries back by offset, validated again. Each entry it reads goes to an
 * {@link EntrySink} (the session tree), which sees structure only.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { seemsCompacted } from "./compaction-hint.js";
import { firstDamage } from "./diagnostics.js";
import { type EntrySource, EntryStore } from "./entry-store.js";
import type { ForeignLog, ForeignReader, RecordedCall } from "./foreign.js";
import { Gathered } from "./gathered.js";
import { Kind } from "./kinds.js";
import { LogParser, type ParsedEntry, type ParseOptions } from "./parse.js";
import {
	closeSource,
	DEFAULT_PIPE_TIMEOUT_MS,
	displayName,
	type FileIdentity,
	giveChunk,
	identify,
	isSameFile,
	openSource,
	readBefore,
	readFileFrom,
	readFileFromAsync,
	readSpans,
	readStream,
	readStreamAsync,
	type Source,
} from "./read.js";
import type { CompactionEntry, Entry, Header } from "./schema.js";

export type { ForeignReader, RecordedCall } from "./foreign.js";

/** A log larger than this is read lean when it holds a compaction. */
const LEAN_LOG_BYTES = 128 * 1024 * 1024;
/** How much a lean read holds: little enough for entries to die young. */
const LEAN_RETAIN_BYTES = 1024 * 1024;

export interface OpenLogOptions extends ParseOptions {
	/**
	 * At most this many bytes of entries are held as objects; older ones are
	 * read back when needed. Default: all of them, but 1 MiB for a log over
	 * 128 MiB that holds a compaction.
	 */
	retainBytes?: number;
	/** How long a FIFO may give nothing before the read fails (default 10 s). */
	pipeTimeoutMs?: number;
	/**
	 * Reads a file of another format (its first line no session header) as a log of ours,
	 * converted in memory; undefined when it does not know it either. Asked only once the header is found missing.
	 */
	foreign?: ForeignReader;
}

/** A foreign file read and converted: the converted entries stand for the file's lines. */
interface Converted {
	/** The converted log's entries as parsed values, by offset (entry `k` at offset `k`). */
	entries: readonly unknown[];
	warnings: readonly Diagnostic[];
	calls: readonly RecordedCall[] | undefined;
}

/** Where a log's entries go, in file order: the structural index. */
export interface EntrySink {
	/** The entry at the next index (`index` counts every entry added). */
	add(entry: Entry, kind: Kind, index: number): void;
	/** The index the id names now, if any. */
	indexOf(id: string): number | undefined;
	/** The id and kind of the entry at `index`. */
	idAt(index: number): string;
	kindAt(index: number): Kind;
	/** An entry skipped as invalid (its id, parentId): what names it hangs from its parent. */
	link?(id: string, parentId: string | null): void;
	/** The batch is in: resolve what waited for later entries. */
	finish(): void;
	/** About `entries` entries are coming (a guess from the file's size). */
	expect?(entries: number): void;
}

/** Bytes per entry in the guess a first read gives the sink (pi's entries are rarely smaller). */
const GUESS_BYTES_PER_ENTRY = 1024;

export class OpenLog<S extends EntrySink = EntrySink> implements EntrySource {
	/** The name for messages: the path, or `<stdin>`. */
	readonly name: string;
	parser: LogParser;
	private store: EntryStore;
	/** A regular file, which later reads resume; a stream is read once. */
	regular = false;
	private opened = false;
	private identity: FileIdentity | undefined;
	/** The bytes before the read offset, to tell an append from a replaced file. */
	private check: Buffer = Buffer.alloc(0);
	private readonly pending: ParsedEntry[] = [];
	/** Chunks kept while a first line spans them (rare), in case the file is foreign. */
	private early: Buffer[] | undefined = [];
	/** A foreign file's bytes, gathered whole once its first line is not a header. */
	private foreignBytes: Gathered | undefined;
	/** The file's size when it was opened: the room a foreign file's bytes are gathered in. */
	private sizeHint = 0;
	private missingHeader: unknown;
	private converted: Converted | undefined;
	/** Takes a chunk read; `keep` (a whole-file read's) lets a foreign file's bytes be taken as they are. */
	private readonly feed = (chunk: Buffer, keep?: () => void): void => {
		if (this.foreignBytes !== undefined) {
			this.foreignBytes.add(chunk);
			return;
		}
		if (this.early === undefined) {
			this.parser.push(chunk, this.pending);
			this.deliver();
			return;
		}
		try {
			this.parser.push(chunk, this.pending);
		} catch (error) {
			if (!this.goForeign(error, chunk, keep)) throw error;
			return;
		}
		if (this.parser.hasHeader) this.early = undefined;
		else this.early.push(Buffer.from(chunk));
		this.deliver();
	};

	/** The structural index the entries go to, made by the constructor's `makeSink`. */
	readonly sink: S;

	constructor(
		/** The path as given (`-` for standard input). */
		readonly path: string,
		/** Makes the sink, given this log as the source of the entries' objects, and the log's name. */
		makeSink: (entries: EntrySource, name: string) => S,
		private readonly options: OpenLogOptions = {},
	) {
		this.name = displayName(path);
		this.parser = new LogParser(this.name, options);
		this.store = new EntryStore((indices) => this.readBack(indices));
		this.sink = makeSink(this, this.name);
	}

	entry(i: number): Entry {
		return this.store.entry(i);
	}
	line(i: number): number {
		return this.store.line(i);
	}
	materialize(indices: readonly number[]): void {
		this.store.materialize(indices);
	}
	get everLetGo(): boolean {
		return this.store.everLetGo;
	}
	get lean(): boolean {
		return this.store.lean;
	}

	/** The header (after a first read). */
	get header(): Header {
		return this.parser.header as Header;
	}

	/** The warnings of the read so far: skipped lines, repairs, a torn last line, a conversion's. */
	diagnostics(): Diagnostic[] {
		const torn = this.parser.tornLine;
		const own =
			torn === undefined
				? this.parser.diagnostics.list()
				: [...this.parser.diagnostics.list(), torn];
		return this.converted === undefined ? own : [...this.converted.warnings, ...own];
	}

	/** The calls a converted source records as billed; undefined for a log of ours. */
	get recordedCalls(): readonly RecordedCall[] | undefined {
		return this.converted?.calls;
	}

	/** Whether the file was of another format, read converted. */
	get isForeign(): boolean {
		return this.converted !== undefined;
	}

	/**
	 * The first line was not a header: gather the whole file for the foreign
	 * reader, if there is one. A first chunk that is the whole file (as its
	 * size was when opened) is taken as it is when the read lets it be kept.
	 */
	private goForeign(error: unknown, chunk: Buffer, keep?: () => void): boolean {
		if (
			this.options.foreign === undefined ||
			this.early === undefined ||
			!(error instanceof ContextError) ||
			error.code !== "missing_header" ||
			this.parser.gaveUp
		) {
			return false;
		}
		if (keep !== undefined && this.early.length === 0 && chunk.length === this.sizeHint) {
			this.foreignBytes = Gathered.adopt(chunk, giveChunk);
			keep();
		} else {
			this.foreignBytes = Gathered.take(this.sizeHint);
			for (const early of this.early) this.foreignBytes.add(early);
			this.foreignBytes.add(chunk);
		}
		this.early = undefined;
		this.missingHeader = error;
		return true;
	}

	/** Converts the gathered foreign file and reads its entries as the log's. */
	private readForeign(): void {
		const gathered = this.foreignBytes;
		this.foreignBytes = undefined;
		// The converted log holds no byte of the file (its texts are decoded copies).
		let result: ForeignLog | undefined;
		try {
			result = this.options.foreign?.(gathered?.bytes() ?? Buffer.alloc(0), this.name);
		} finally {
			gathered?.release();
		}
		if (result === undefined) throw this.missingHeader;
		// Strict, a line the conversion could not read is refused as in a log of ours.
		const refusal =
			this.options.strict === true ? firstDamage(result.warnings, this.name) : undefined;
		if (refusal !== undefined) throw refusal;
		this.converted = { entries: result.entries, warnings: result.warnings, calls: result.calls };
		this.parser = new LogParser(this.name, this.options);
		this.store = new EntryStore((indices) => this.readBack(indices));
		this.parser.pushValues(result.header, result.entries, this.pending);
		this.parser.end(this.pending);
		for (const parsed of this.pending)
			parsed.line = result.sourceLines[parsed.line - 2] ?? parsed.line;
	}

	/** A later read of a converted file: unchanged, nothing new; changed, read it afresh. */
	private sameForeign(source: Source): boolean {
		const before = this.identity;
		const { dev, ino, size, mtimeMs } = source.stat;
		return (
			before !== undefined &&
			source.regular &&
			dev === before.dev &&
			ino === before.ino &&
			size === before.size &&
			mtimeMs === before.mtimeMs
		);
	}

	/**
	 * Reads the log (on the first call) or what was appended since. False
	 * when the file is no longer the one read (replaced, truncated, rewritten,
	 * a stream): only a fresh OpenLog can read it.
	 */
	readSync(): boolean {
		const source = openSource(this.path);
		try {
			if (this.converted !== undefined) return this.sameForeign(source);
			if (!this.begin(source)) return false;
			if (source.regular) readFileFrom(source, this.parser.offset, this.feed);
			else readStream(source, this.feed, this.pipeTimeout());
			return this.complete(source);
		} finally {
			closeSource(source);
		}
	}

	/** {@link readSync}, with the reads asynchronous. */
	async read(): Promise<boolean> {
		const source = openSource(this.path);
		try {
			if (this.converted !== undefined) return this.sameForeign(source);
			if (!this.begin(source)) return false;
			if (source.regular) await readFileFromAsync(source, this.parser.offset, this.feed);
			else await readStreamAsync(source, this.feed, this.pipeTimeout());
			return this.complete(source);
		} finally {
			closeSource(source);
		}
	}

	private pipeTimeout(): number {
		return this.options.pipeTimeoutMs ?? DEFAULT_PIPE_TIMEOUT_MS;
	}

	/** Before reading: the first read sets up; a later one checks the file is the same. */
	private begin(source: Source): boolean {
		if (!this.opened) {
			this.opened = true;
			this.regular = source.regular;
			if (source.regular) this.identity = identify(source);
			this.sizeHint = source.regular ? source.stat.size : 0;
			this.store = new EntryStore((indices) => this.readBack(indices), this.retainBytes(source));
			if (source.regular) this.sink.expect?.(Math.ceil(source.stat.size / GUESS_BYTES_PER_ENTRY));
			return true;
		}
		const identity = this.identity;
		return identity !== undefined && isSameFile(source, identity, this.parser.offset, this.check);
	}

	/** After reading: the last line, the sink's batch, the identity for the next read. */
	private complete(source: Source): boolean {
		if (this.foreignBytes === undefined) {
			try {
				this.parser.end(this.pending);
			} catch (error) {
				if (!this.goForeign(error, Buffer.alloc(0))) throw error;
			}
		}
		if (this.foreignBytes !== undefined) this.readForeign();
		this.early = undefined;
		this.deliver();
		this.sink.finish();
		if (this.parser.diverged) return false;
		if (source.regular) {
			this.identity = identify(source);
			if (this.converted === undefined) this.check = readBefore(source, this.parser.offset);
		}
		return true;
	}

	private deliver(): void {
		for (const { id, parentId } of this.parser.links) this.sink.link?.(id, parentId);
		this.parser.links.length = 0;
		for (const parsed of this.pending) {
			const index = this.store.push(parsed);
			this.sink.add(parsed.entry, parsed.kind, index);
			if (parsed.kind === Kind.Compaction) {
				const firstKept = (parsed.entry as CompactionEntry).firstKeptEntryId;
				const first = firstKept === undefined ? undefined : this.sink.indexOf(firstKept);
				if (first !== undefined) this.store.letGoBefore(first);
			}
		}
		this.pending.length = 0;
	}

	/**
	 * How many bytes of entry objects to hold: all of them, unless the log is
	 * huge and holds a compaction; then most of it is out of the context, and
	 * holding almost nothing keeps memory flat (what the context needs is read back).
	 */
	private retainBytes(source: Source): number {
		if (this.options.retainBytes !== undefined) return this.options.retainBytes;
		return source.regular && source.stat.size > LEAN_LOG_BYTES && seemsCompacted(source)
			? LEAN_RETAIN_BYTES
			: Number.POSITIVE_INFINITY;
	}

	/**
	 * Entries let go, read back from the file and validated again: each line
	 * must still parse to the entry it was (same id, same kind). A file that
	 * changed is `file_replaced`, located; the caller reads it afresh.
	 */
	private readBack(indices: readonly number[]): Entry[] {
		const converted = this.converted;
		// A converted entry was checked when it was read, and is held: it is the one it was.
		if (converted !== undefined)
			return indices.map((i) => converted.entries[this.store.span(i).offset] as Entry);
		const source = openSource(this.path);
		try {
			if (
				this.identity === undefined ||
				!isSameFile(source, this.identity, this.parser.offset, this.check)
			) {
				throw new ContextError("file_replaced", "the session log changed since it was read", {
					file: this.name,
				});
			}
			const texts = readSpans(
				source,
				indices.map((i) => this.store.span(i)),
			);
			return indices.map((i, k) => this.reparse(i, texts[k] as string));
		} finally {
			closeSource(source);
		}
	}

	private reparse(i: number, text: string): Entry {
		const line = this.store.line(i);
		const { offset, length } = this.store.span(i);
		const previousId = i === 0 ? null : this.sink.idAt(i - 1);
		const result = this.parser.reparse(text, line, offset, length, previousId);
		const id = this.sink.idAt(i);
		if (!("entry" in result) || result.entry.id !== id || result.kind !== this.sink.kindAt(i)) {
			const reason =
				"entry" in result
					? `it is now another entry (${JSON.stringify(result.entry.id)})`
					: result.reason;
			throw new ContextError("file_replaced", `the line changed since it was read (${reason})`, {
				file: this.name,
				line,
				...("column" in result && result.column !== undefined ? { column: result.column } : {}),
			});
		}
		return result.entry;
	}
}

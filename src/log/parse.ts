/**
 * Lines to validated entries: the header, JSON, migration and validation.
 * Pure: the caller feeds bytes (a whole file, or what was appended since the
 * last read) and gets entries back. By default the reader is as tolerant as
 * pi and never silent: a bad line is skipped with a warning naming the line
 * (and column) and the reason; in strict mode it is an error instead.
 */
import { ContextError, type ErrorCode } from "../errors.js";
import { describeRejection } from "./describe.js";
import { Diagnostics } from "./diagnostics.js";
import { locateJsonError } from "./json-error.js";
import { isObject, Kind, LATEST_VERSION } from "./kinds.js";
import { type LineHandler, LineSplitter } from "./lines.js";
import { type MigrationState, migrateEntry } from "./migrate.js";
import {
	BAD_COMPACT_CONTEXT,
	BAD_KNOWN_ENTRY,
	BAD_METADATA,
	BAD_UNKNOWN_ENTRY,
	checkEntry,
	isHeader,
	UNKNOWN_ROLE,
	UNKNOWN_TYPE,
} from "./quick-check.js";
import type { Entry, Header } from "./schema.js";

export { DEFAULT_MAX_LINE_BYTES } from "./lines.js";

export interface ParsedEntry {
	entry: Entry;
	kind: Kind;
	/** 1-based line number in the file. */
	line: number;
	/** Where the line's bytes are in the file, to read it again later. */
	offset: number;
	length: number;
}

export interface ParseOptions {
	/** Refuse bad input with a located error instead of skipping or repairing it with a warning. */
	strict?: boolean;
	/** The default (skip bad lines with a warning); kept as an alias. */
	lenient?: boolean;
	/** A line longer than this many bytes is refused (default 64 MiB). */
	maxLineBytes?: number;
}

/** Lines that are not JSON skipped before the header at most: past them the input is no log (an endless stream). */
export const MAX_SKIPPED_BEFORE_HEADER = 100;

/** An entry, or a line that failed: the reason, and the column where one is known. */
export type LineResult = ParsedEntry | { code: ErrorCode; reason: string; column?: number };

/**
 * An incremental parser. Feed it the file's bytes in order with
 * {@link LogParser.push}; call {@link LogParser.end} at the end of what is on
 * disk. A later read resumes from {@link LogParser.offset} after the file grew.
 */
export class LogParser implements LineHandler {
	header: Header | undefined;
	version = LATEST_VERSION;
	readonly diagnostics: Diagnostics;
	readonly strict: boolean;
	private readonly lines: LineSplitter;
	private readonly migration: MigrationState = { previousId: null, parsedLines: [] };
	private headerText = "";
	/** Lines skipped before the header: a file of nothing else has no header, and says so. */
	private skippedBeforeHeader = 0;
	/** Too many lines before the header were not JSON: no reader of another format is tried either. */
	gaveUp = false;
	private out: ParsedEntry[] = [];
	/**
	 * The id and parentId of each entry skipped as invalid that has both: a
	 * link of the tree still, so that what hangs from it hangs from its parent
	 * (the reader hands them to its sink, and empties this).
	 */
	readonly links: { id: string; parentId: string | null }[] = [];

	constructor(
		readonly file: string,
		options: ParseOptions & { stream?: boolean } = {},
	) {
		this.strict = options.strict === true;
		this.diagnostics = new Diagnostics(file);
		this.lines = new LineSplitter(file, this, options.maxLineBytes, options.stream === true);
	}

	/** Bytes consumed: the offset just past the last complete line. */
	get offset(): number {
		return this.lines.offset;
	}
	get tornLine() {
		return this.lines.tornLine;
	}
	/** Bytes appended continued a last line that had no newline: only a fresh read can tell. */
	get diverged(): boolean {
		return this.lines.diverged;
	}
	get hasHeader(): boolean {
		return this.header !== undefined;
	}

	/** Parses every complete line of `chunk` into `out`. */
	push(chunk: Uint8Array, out: ParsedEntry[]): void {
		this.out = out;
		this.lines.push(chunk);
	}

	/**
	 * A converted file's header and entries, already parsed (see
	 * `ForeignLog`: each the value its line would parse to), read as lines 1,
	 * 2, 3, … of a log are; entry `k` is line `k + 2`, at offset `k`.
	 */
	pushValues(header: unknown, entries: readonly unknown[], out: ParsedEntry[]): void {
		this.out = out;
		this.onLine("", 1, -1, 0, header);
		if (this.header !== undefined) this.headerText = JSON.stringify(header);
		for (let k = 0; k < entries.length; k++) {
			const value = entries[k];
			// A repeated header is told from a different one by its text.
			this.onLine(isSession(value) ? JSON.stringify(value) : "", k + 2, k, 0, value);
		}
	}

	/** The bytes on disk end here: parses a last line without a newline into `out`. */
	end(out: ParsedEntry[]): void {
		this.out = out;
		this.lines.end();
		if (this.header === undefined && !this.lines.diverged) {
			const reason =
				this.lines.line === 0
					? "empty log: line 1 must be the session header"
					: this.skippedBeforeHeader > 0
						? "no session header: every line was skipped or blank (the first JSON line must be the header)"
						: "no session header: the log holds only blank lines (line 1 must be the header)";
			throw new ContextError("missing_header", reason, {
				file: this.file,
				line: Math.max(1, this.lines.line),
			});
		}
	}

	onLine(text: string, line: number, offset: number, length: number, parsed?: unknown): void {
		const result = this.parseLine(text, line, offset, length, parsed);
		if (result === undefined) return;
		if ("entry" in result) this.out.push(result);
		else this.reject(result.code, result.reason, line, result.column);
	}

	onBadLine(code: ErrorCode, reason: string, line: number): void {
		this.reject(code, reason, line);
	}

	onReplacedBytes(line: number): void {
		const reason = "the line holds bytes that are not valid UTF-8";
		if (this.strict) throw new ContextError("bad_utf8", reason, { file: this.file, line });
		this.diagnostics.warn("bad_utf8", `${reason}: each read as U+FFFD, as pi reads it`, line);
	}

	/**
	 * One line to an entry, a failure, or nothing (blank, the header). Also
	 * used on a line read back from the file, which must parse as it did.
	 */
	parseLine(
		text: string,
		line: number,
		offset: number,
		length: number,
		parsed?: unknown,
	): LineResult | undefined {
		let value = parsed;
		if (value === undefined) {
			if (isBlank(text)) {
				if (this.header === undefined) this.blankBeforeHeader(line);
				return undefined;
			}
			let source = text;
			if (this.header === undefined && text.charCodeAt(0) === 0xfeff) {
				source = text.slice(1);
				this.diagnostics.warn(
					"byte_order_mark",
					"a UTF-8 byte-order mark before the header: ignored",
					line,
				);
			}
			// Past the kept warnings, a line that cannot be an entry is counted without parsing it.
			if (this.countsOnly() && this.version >= 2 && source.trimStart().charCodeAt(0) !== 0x7b) {
				return { code: "bad_entry", reason: "" };
			}
			try {
				value = JSON.parse(source);
			} catch {
				if (this.countsOnly()) return { code: "bad_json", reason: "" };
				const error = locateJsonError(source);
				const column = error.column + (source === text ? 0 : 1);
				return { code: "bad_json", reason: `not valid JSON: ${error.reason}`, column };
			}
			if (this.header === undefined) this.headerText = source;
		}
		if (this.version < 2) this.migration.parsedLines.push(isSession(value) ? -line : line);
		if (this.header === undefined) {
			this.readHeader(value, line);
			return undefined;
		}
		if (isSession(value)) return this.repeatedHeader(text, line);
		const result = this.entryOf(value, line, offset, length, this.migration, true);
		if ("entry" in result) this.migration.previousId = result.entry.id;
		return result;
	}

	/**
	 * A line read back from the file after its entry was let go: it must parse
	 * to a valid entry again (the caller checks it is the same one). No
	 * warnings: they were given when the line was first read.
	 */
	reparse(
		text: string,
		line: number,
		offset: number,
		length: number,
		previousId: string | null,
	): LineResult {
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			const error = locateJsonError(text);
			return { code: "bad_json", reason: `not valid JSON: ${error.reason}`, column: error.column };
		}
		const state = { previousId, parsedLines: this.migration.parsedLines };
		return this.entryOf(value, line, offset, length, state, false);
	}

	private entryOf(
		value: unknown,
		line: number,
		offset: number,
		length: number,
		state: MigrationState,
		report: boolean,
	): LineResult {
		if (!isObject(value)) return { code: "bad_entry", reason: "an entry must be a JSON object" };
		if (value.type === "session")
			return { code: "bad_entry", reason: "a session header where an entry should be" };
		migrateEntry(value, this.version, line, state);
		const verdict = checkEntry(value);
		if (verdict < 0) {
			const { id, parentId } = value;
			const link =
				report && typeof id === "string" && (parentId === null || typeof parentId === "string");
			if (link) this.links.push({ id, parentId });
			if (report && this.countsOnly()) return { code: "bad_entry", reason: "" };
			const kept = link
				? "; its place in the tree is kept: what hangs from it hangs from its parent"
				: "";
			return { code: "bad_entry", reason: `${rejection(verdict, value)}${kept}` };
		}
		let kind: Kind = Kind.Other;
		if (verdict === UNKNOWN_TYPE || verdict === UNKNOWN_ROLE) {
			const role = verdict === UNKNOWN_ROLE;
			const what = role
				? `message role ${JSON.stringify((value.message as { role: unknown }).role)}`
				: `entry type ${JSON.stringify(value.type)}`;
			const code = role ? "unknown_message_role" : "unknown_entry_type";
			if (report)
				this.diagnostics.warn(code, `unknown ${what}: kept, left out of the context`, line);
		} else {
			kind = verdict as Kind;
			if (this.strict && lacksCustomType(value, kind)) {
				return { code: "bad_entry", reason: "invalid entry: a custom message without customType" };
			}
		}
		return { entry: value as Entry, kind, line, offset, length };
	}

	/** A bad line now would only be counted: spare describing it. */
	private countsOnly(): boolean {
		return !this.strict && this.header !== undefined && this.diagnostics.full;
	}

	private blankBeforeHeader(line: number): void {
		if (line === 1)
			this.diagnostics.warn(
				"blank_before_header",
				"blank line(s) before the header: ignored",
				line,
			);
	}

	private repeatedHeader(text: string, line: number): LineResult | undefined {
		if (text.trim() !== this.headerText.trim()) {
			return {
				code: "bad_entry",
				reason: "a second, different session header; the header belongs on line 1 only",
			};
		}
		if (this.strict) return { code: "repeated_header", reason: "the session header is repeated" };
		this.diagnostics.warn("repeated_header", "the session header is repeated: ignored", line);
		return undefined;
	}

	private readHeader(value: unknown, line: number): void {
		const location = { file: this.file, line };
		if (!isObject(value) || value.type !== "session") {
			throw new ContextError(
				"missing_header",
				'the first JSON line must be the session header ({"type":"session",…})',
				location,
			);
		}
		if (!isHeader(value)) {
			const reason = describeRejection("Header", value) ?? "invalid";
			throw new ContextError("bad_header", `invalid session header: ${reason}`, location);
		}
		const version = (value.version as number | undefined) ?? 1;
		if (version > LATEST_VERSION) {
			throw new ContextError(
				"unsupported_version",
				`session log version ${version} is newer than this compiler reads (1 to ${LATEST_VERSION})`,
				location,
			);
		}
		const missing = ["cwd", "timestamp"].filter((key) => value[key] === undefined);
		if (missing.length > 0) {
			const reason = `the session header has no ${missing.join(" and no ")}`;
			if (this.strict)
				throw new ContextError("bad_header", `invalid session header: ${reason}`, location);
			this.diagnostics.warn("incomplete_header", `${reason}: taken as empty`, line);
			for (const key of missing) value[key] = "";
		}
		this.header = value as Header;
		this.version = version;
		if (version < 2) this.migration.parsedLines = [-line];
	}

	/**
	 * A bad line: an error when strict, else a warning and the line skipped.
	 * Before the header a line that is not JSON is skipped too (a comment or
	 * a torn line on top, as pi skips it); any other failure there (a line
	 * over the limit: an endless device) is no log, and an error.
	 */
	private reject(code: ErrorCode, reason: string, line: number, column?: number): void {
		const beforeHeader = this.header === undefined;
		if (beforeHeader && ++this.skippedBeforeHeader > MAX_SKIPPED_BEFORE_HEADER && !this.strict) {
			this.gaveUp = true;
			throw new ContextError(
				"missing_header",
				`no session header in the first ${MAX_SKIPPED_BEFORE_HEADER} lines that are not JSON`,
				{ file: this.file, line },
			);
		}
		if (this.strict || (beforeHeader && code !== "bad_json")) {
			throw new ContextError(code, reason, {
				file: this.file,
				line,
				...(column === undefined ? {} : { column }),
			});
		}
		this.diagnostics.warn("skipped_line", `skipped: ${reason}`, line, column);
	}
}

/** Why a value was rejected, in the words of the schema that rejects it. */
function rejection(verdict: number, value: Record<string, unknown>): string {
	switch (verdict) {
		case BAD_UNKNOWN_ENTRY:
			return `invalid entry: ${describeRejection("UnknownEntry", value)}`;
		case BAD_KNOWN_ENTRY:
			return `invalid entry: ${describeRejection("KnownEntry", value)}`;
		case BAD_METADATA:
			return `invalid session_metadata data: ${describeRejection("MetadataPatch", value.data, "data")}`;
		case BAD_COMPACT_CONTEXT:
			return `invalid compact_context data: ${describeRejection("CompactContextData", value.data, "data")}`;
		default:
			return "invalid entry";
	}
}

function lacksCustomType(value: Record<string, unknown>, kind: Kind): boolean {
	if (kind === Kind.CustomMessage) return value.customType === undefined;
	if (kind !== Kind.Message) return false;
	const message = value.message as Record<string, unknown>;
	return message.role === "custom" && message.customType === undefined;
}

function isSession(value: unknown): boolean {
	return isObject(value) && value.type === "session";
}

/** A line pi skips as blank: only whitespace as `String.prototype.trim` counts it (a BOM included). */
function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
		// Other whitespace (a no-break space, a line separator, a BOM) is rare: trim decides.
		return (c > 0x7f || c === 0x0b || c === 0x0c) && text.trim() === "";
	}
	return true;
}

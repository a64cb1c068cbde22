/**
 * Parsing a session log from bytes: lines, JSON, header, migration and
 * validation. Pure: the caller feeds bytes (a whole file, or what was appended
 * since the last read) and gets validated entries back. Errors name the file,
 * the line and the reason; in lenient mode a bad line is skipped and listed as
 * a diagnostic instead. Nothing is dropped silently.
 */
import { isUtf8 } from "node:buffer";
import type { z } from "zod";
import { ContextError, type Diagnostic, type ErrorCode } from "../errors.js";
import { type MigrationState, migrateEntry } from "./migrate.js";
import { isCertainlyValidMessageEntry } from "./quick-check.js";
import {
	CompactContextDataSchema,
	ENTRY_TYPES,
	type Entry,
	type Header,
	HeaderSchema,
	KnownEntrySchema,
	LATEST_VERSION,
	MESSAGE_ROLES,
	MetadataPatchSchema,
	UnknownEntrySchema,
} from "./schema.js";

/** What an entry is to the tree and the projection, decided once at read time. */
export const Kind = {
	/** Out of the context but part of the tree (custom of another type, unknown type or role). */
	Other: 0,
	Message: 1,
	Compaction: 2,
	BranchSummary: 3,
	CustomMessage: 4,
	CompactContext: 5,
	ModelChange: 6,
	ThinkingLevelChange: 7,
	/** Session-level: `session_metadata`, `label`, `session_info`. Never the leaf. */
	SessionLevel: 8,
	Metadata: 9,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

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
	/** Skip damaged lines (each listed as a diagnostic) instead of failing. */
	lenient?: boolean;
	/** A line longer than this many bytes is refused (default 64 MiB). */
	maxLineBytes?: number;
}

const NEWLINE = 0x0a;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Lines are decoded this many bytes at a time (rounded up to a whole line). */
const SLICE_BYTES = 32 * 1024;

/**
 * An incremental line parser. Feed it the file's bytes in order with
 * {@link LogParser.push}; call {@link LogParser.end} at the end of what is on
 * disk. It remembers where the last complete line ended, so a later read can
 * resume from {@link LogParser.offset} after the file grew.
 */
export class LogParser {
	header: Header | undefined;
	version = LATEST_VERSION;
	/** Bytes consumed: the offset just past the last complete line. */
	offset = 0;
	/** The last line number consumed. */
	line = 0;
	readonly diagnostics: Diagnostic[] = [];
	/** The warning for a torn last line, if the bytes on disk end in one (not consumed). */
	tornLine: Diagnostic | undefined;
	/** The pieces of an unfinished line, and their length. */
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	/** The file offset and byte length of the line being parsed. */
	private lineStart = 0;
	private lineBytes = 0;
	/**
	 * Bytes appended after a last line that had no newline continued that
	 * line: what was parsed no longer matches the file. Only a fresh read can
	 * say what the file holds now; this parser takes no more bytes.
	 */
	diverged = false;
	/** The last line parsed had no newline (the bytes on disk ended there). */
	private unterminated = false;
	private skipping = false;
	private readonly migration: MigrationState = { previousId: null };
	private readonly lenient: boolean;
	private readonly maxLineBytes: number;

	constructor(
		readonly file: string,
		options: ParseOptions = {},
	) {
		this.lenient = options.lenient ?? false;
		this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	}

	/** Parses every complete line in `chunk` (plus what was left over before). */
	push(input: Buffer, out: ParsedEntry[]): void {
		if (this.diverged) return;
		this.tornLine = undefined;
		let chunk = input;
		if (this.unterminated) {
			// The last read ended in a complete line without its newline: skip to it.
			let k = 0;
			while (k < chunk.length && (chunk[k] === 0x20 || chunk[k] === 0x09 || chunk[k] === 0x0d)) k++;
			this.offset += k;
			chunk = chunk.subarray(k);
			if (chunk.length === 0) return;
			this.unterminated = false;
			if (chunk[0] !== NEWLINE) {
				// That line goes on: read as a whole, it is not what was parsed.
				this.diverged = true;
				return;
			}
			this.offset += 1;
			chunk = chunk.subarray(1);
		}
		let buf = chunk;
		if (this.pending.length > 0 || this.skipping) {
			const nl = chunk.indexOf(NEWLINE);
			if (nl === -1) {
				this.hold(chunk); // a long line goes on: keep its pieces, copy once at its end
				return;
			}
			if (this.skipping) {
				this.skipping = false;
				this.offset += nl + 1;
			} else {
				// Only the line that spans the pieces is copied together.
				const head = Buffer.concat([...this.pending, chunk.subarray(0, nl + 1)]);
				this.pending = [];
				this.pendingBytes = 0;
				this.parseSpan(head, head.length - 1, out);
			}
			buf = chunk.subarray(nl + 1);
		}
		const last = buf.lastIndexOf(NEWLINE);
		if (last !== -1) this.parseSpan(buf, last, out);
		if (last + 1 < buf.length) this.hold(buf.subarray(last + 1));
	}

	/**
	 * Parses the complete lines of `buf` up to the newline at `last`. The fast
	 * path decodes them in one go, as valid UTF-8 mostly is; a span with a bad
	 * byte is parsed line by line, to name the line.
	 */
	private parseSpan(buf: Buffer, last: number, out: ParsedEntry[]): void {
		const span = buf.subarray(0, last);
		if (!isUtf8(span)) {
			for (let start = 0; start <= last; ) {
				const nl = buf.indexOf(NEWLINE, start);
				const bytes = buf.subarray(start, nl);
				this.lineStart = this.offset + start;
				this.lineBytes = bytes.length;
				if (isUtf8(bytes)) {
					this.parseText(bytes.toString("utf8"), out);
				} else {
					this.line++;
					this.fail("bad_utf8", "line is not valid UTF-8");
				}
				start = nl + 1;
			}
			this.offset += last + 1;
			return;
		}
		// Decoded in slices of a few lines: small strings die young, where
		// one string per chunk would pile up in V8's large-object space.
		for (let from = 0; from <= last; ) {
			let to = from + SLICE_BYTES >= last ? last : buf.indexOf(NEWLINE, from + SLICE_BYTES);
			if (to === -1 || to > last) to = last;
			const text = buf.toString("utf8", from, to);
			// In an all-ASCII slice, characters and bytes line up: no second scan for line ends.
			const ascii = text.length === to - from;
			let byte = from;
			for (let start = 0; start <= text.length; ) {
				let nl = text.indexOf("\n", start);
				if (nl === -1) nl = text.length;
				const byteEnd = nl === text.length ? to : ascii ? from + nl : buf.indexOf(NEWLINE, byte);
				this.lineStart = this.offset + byte;
				this.lineBytes = byteEnd - byte;
				this.parseText(text.slice(start, nl), out);
				start = nl + 1;
				byte = byteEnd + 1;
			}
			from = to + 1;
		}
		this.offset += last + 1;
	}

	/**
	 * One complete, valid UTF-8 line (its bytes are counted by the caller);
	 * `given` when the caller already parsed it.
	 */
	private parseText(text: string, out: ParsedEntry[], given?: { value: unknown }): void {
		const lineNo = ++this.line;
		this.unterminated = false;
		if (text.length * 3 > this.maxLineBytes && Buffer.byteLength(text) > this.maxLineBytes) {
			this.fail("line_too_long", `line is longer than ${this.maxLineBytes} bytes`);
			return;
		}
		let value: unknown;
		try {
			value = given !== undefined ? given.value : isBlank(text) ? undefined : JSON.parse(text);
		} catch (error) {
			this.fail("bad_json", `not valid JSON (${(error as Error).message})`);
			return;
		}
		if (this.header === undefined) {
			this.readHeader(value, lineNo);
			return;
		}
		if (value === undefined) return;
		const parsed = this.readEntry(value, lineNo);
		if (parsed !== undefined) out.push(parsed);
	}

	/** Keeps the start of an unfinished line, or skips it once it is too long. */
	private hold(piece: Buffer): void {
		if (this.skipping) {
			this.offset += piece.length;
			return;
		}
		this.pendingBytes += piece.length;
		if (this.pendingBytes > this.maxLineBytes) {
			this.line++;
			this.offset += this.pendingBytes;
			this.pending = [];
			this.pendingBytes = 0;
			this.skipping = true;
			this.fail("line_too_long", `line is longer than ${this.maxLineBytes} bytes`);
			return;
		}
		this.pending.push(Buffer.from(piece)); // the reader reuses its buffer
	}

	/** The bytes on disk end here: parse a last line that has no newline. */
	end(out: ParsedEntry[]): void {
		if (this.diverged) return;
		const rest = Buffer.concat(this.pending);
		if (rest.length === 0) {
			if (this.header === undefined && !this.skipping) {
				throw new ContextError("missing_header", "empty log: line 1 must be the session header", {
					file: this.file,
					line: 1,
				});
			}
			return;
		}
		this.pending = [];
		this.pendingBytes = 0;
		this.lineStart = this.offset;
		this.lineBytes = rest.length;
		// A torn last line (a crash mid-append) is skipped, not consumed: if the
		// writer finishes it, the next read takes it whole. Without a header
		// there is nothing to salvage, so it is an error like any other line.
		const torn = this.header !== undefined;
		if (!isUtf8(rest)) {
			if (torn) {
				this.torn(this.line + 1, "not valid UTF-8");
			} else {
				this.line++;
				this.fail("bad_utf8", "line is not valid UTF-8");
			}
			return;
		}
		const text = rest.toString("utf8");
		let value: unknown;
		try {
			value = isBlank(text) ? undefined : JSON.parse(text);
		} catch (error) {
			if (torn) {
				this.torn(this.line + 1, (error as Error).message);
			} else {
				this.line++;
				this.fail("bad_json", `not valid JSON (${(error as Error).message})`);
			}
			return;
		}
		this.offset += rest.length;
		this.parseText(text, out, { value });
		this.unterminated = true;
	}

	private torn(lineNo: number, reason: string): void {
		// Not consumed: if the writer finishes the line later, a reload reads it whole.
		this.tornLine = {
			severity: "warning",
			code: "torn_line",
			message: `last line is incomplete (no newline, ${reason}); skipped as a crash mid-append`,
			file: this.file,
			line: lineNo,
		};
	}

	private readHeader(value: unknown, lineNo: number): void {
		if (lineNo !== 1 || !isObject(value) || value.type !== "session") {
			throw new ContextError(
				"missing_header",
				'line 1 must be the session header ({"type":"session",…})',
				{ file: this.file, line: 1 },
			);
		}
		const result = HeaderSchema.safeParse(value);
		if (!result.success) {
			throw new ContextError(
				"bad_header",
				`invalid session header: ${describeIssues(result.error)}`,
				{
					file: this.file,
					line: lineNo,
				},
			);
		}
		const version = result.data.version ?? 1;
		if (version > LATEST_VERSION) {
			throw new ContextError(
				"unsupported_version",
				`session log version ${version} is newer than this compiler reads (1 to ${LATEST_VERSION})`,
				{ file: this.file, line: lineNo },
			);
		}
		this.header = value as Header;
		this.version = version;
	}

	private readEntry(value: unknown, lineNo: number): ParsedEntry | undefined {
		if (!isObject(value)) {
			this.fail("bad_entry", "an entry must be a JSON object");
			return undefined;
		}
		if (value.type === "session") {
			this.fail("bad_entry", "a second session header; the header belongs on line 1 only");
			return undefined;
		}
		migrateEntry(value, this.version, lineNo, this.migration);
		const type = value.type;
		if (typeof type !== "string" || !ENTRY_TYPES.has(type)) {
			if (!this.check(UnknownEntrySchema, value)) return undefined;
			this.warn(
				lineNo,
				"unknown_entry_type",
				`unknown entry type ${JSON.stringify(type)}: kept, left out of the context`,
			);
			return this.accept(value, Kind.Other, lineNo);
		}
		if (type === "message") {
			const message = value.message;
			const role = isObject(message) ? message.role : undefined;
			if (isObject(message) && !MESSAGE_ROLES.has(role as string)) {
				if (!this.check(UnknownEntrySchema, value)) return undefined;
				this.warn(
					lineNo,
					"unknown_message_role",
					`unknown message role ${JSON.stringify(role)}: kept, left out of the context`,
				);
				return this.accept(value, Kind.Other, lineNo);
			}
		}
		if (!isCertainlyValidMessageEntry(value) && !this.check(KnownEntrySchema, value))
			return undefined;
		const kind = this.kindOf(value);
		if (kind === undefined) return undefined;
		return this.accept(value, kind, lineNo);
	}

	private accept(value: Record<string, unknown>, kind: Kind, line: number): ParsedEntry {
		this.migration.previousId = value.id as string;
		return { entry: value as Entry, kind, line, offset: this.lineStart, length: this.lineBytes };
	}

	private kindOf(value: Record<string, unknown>): Kind | undefined {
		switch (value.type) {
			case "message":
				return Kind.Message;
			case "compaction":
				return Kind.Compaction;
			case "branch_summary":
				return Kind.BranchSummary;
			case "custom_message":
				return Kind.CustomMessage;
			case "model_change":
				return Kind.ModelChange;
			case "thinking_level_change":
				return Kind.ThinkingLevelChange;
			case "label":
			case "session_info":
				return Kind.SessionLevel;
			case "custom":
				if (value.customType === "session_metadata") {
					return this.checkData(MetadataPatchSchema, value) ? Kind.Metadata : undefined;
				}
				if (value.customType === "compact_context") {
					return this.checkData(CompactContextDataSchema, value) ? Kind.CompactContext : undefined;
				}
				return Kind.Other;
			default:
				return Kind.Other;
		}
	}

	private check(schema: z.ZodType, value: unknown): boolean {
		const result = schema.safeParse(value);
		if (result.success) return true;
		this.fail("bad_entry", `invalid entry: ${describeIssues(result.error)}`);
		return false;
	}

	private checkData(schema: z.ZodType, value: Record<string, unknown>): boolean {
		const result = schema.safeParse(value.data);
		if (result.success) return true;
		this.fail(
			"bad_entry",
			`invalid ${String(value.customType)} data: ${describeIssues(result.error, "data")}`,
		);
		return false;
	}

	/** A bad line: an error, or in lenient mode a diagnostic and the line skipped. */
	private fail(code: ErrorCode, reason: string): void {
		const location = { file: this.file, line: this.line };
		if (this.header === undefined) {
			// Without a header nothing can be salvaged.
			throw new ContextError(code, reason, location);
		}
		if (!this.lenient) throw new ContextError(code, reason, location);
		this.diagnostics.push({
			severity: "warning",
			code: "skipped_line",
			message: `skipped: ${reason}`,
			...location,
		});
	}

	private warn(line: number, code: ErrorCode, message: string): void {
		this.diagnostics.push({ severity: "warning", code, message, file: this.file, line });
	}
}

/** zod issues as one line: `message at a.b[0]; …` (the first three). */
export function describeIssues(error: z.ZodError, prefix?: string): string {
	const parts = error.issues.slice(0, 3).map((issue) => {
		const path = formatPath(prefix === undefined ? issue.path : [prefix, ...issue.path]);
		return path === "" ? issue.message : `${path}: ${issue.message}`;
	});
	if (error.issues.length > 3) parts.push(`and ${error.issues.length - 3} more`);
	return parts.join("; ");
}

function formatPath(path: readonly PropertyKey[]): string {
	let out = "";
	for (const key of path) {
		if (typeof key === "number") out += `[${key}]`;
		else out += out === "" ? String(key) : `.${String(key)}`;
	}
	return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
	}
	return true;
}

/**
 * Bytes to lines. Fed a file's bytes in order (the whole file, or what was
 * appended since), it hands each complete line to a {@link LineHandler} with
 * its number and byte span, and remembers where the last complete line
 * ended, so a later read resumes from {@link LineSplitter.offset}. A line is
 * never held whole past `maxLineBytes`; a torn last line (a crash
 * mid-append) is not consumed, so a later read takes it whole.
 */
import { isUtf8 } from "node:buffer";
import { ContextError, type Diagnostic } from "../errors.js";
import { locateJsonError } from "./json-error.js";

const NEWLINE = 0x0a;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Lines are decoded this many bytes at a time (rounded up to a whole line). */
const SLICE_BYTES = 32 * 1024;

/** Where the lines go. */
export interface LineHandler {
	/** A complete line of valid UTF-8; `parsed` when the splitter already parsed it as JSON. */
	onLine(text: string, line: number, offset: number, length: number, parsed?: unknown): void;
	/** A line too long to read. Throws, or records the line as skipped. */
	onBadLine(code: "line_too_long", reason: string, line: number): void;
	/** Line `line` holds bytes that are not UTF-8 and is read with each as U+FFFD, as pi reads it: throws, or warns. */
	onReplacedBytes(line: number): void;
	/** Whether the header was read: a torn last line is salvaged only after it. */
	readonly hasHeader: boolean;
}

export class LineSplitter {
	/** Bytes consumed: the offset just past the last complete line. */
	offset = 0;
	/** The last line number consumed. */
	line = 0;
	/** The warning for a torn last line, if the bytes on disk end in one (not consumed). */
	tornLine: Diagnostic | undefined;
	/**
	 * Bytes appended after a last line that had no newline continued that
	 * line: what was parsed no longer matches the file. Only a fresh read can
	 * say what the file holds now; this splitter takes no more bytes.
	 */
	diverged = false;
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	/** The last line had no newline (the bytes on disk ended there). */
	private unterminated = false;
	private skipping = false;

	constructor(
		readonly file: string,
		private readonly handler: LineHandler,
		private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
		/** A stream cannot skip a too-long line: it may never end (`/dev/zero`). */
		private readonly stream = false,
	) {}

	/**
	 * Parses every complete line in `input` (plus what was left over before).
	 * Typed as the Uint8Array a Buffer is, so the published types need no
	 * `@types/node`; a Buffer is used as it is, anything else viewed as one.
	 */
	push(input: Uint8Array): void {
		if (this.diverged) return;
		this.tornLine = undefined;
		let chunk = asBuffer(input);
		if (this.unterminated) {
			// The last read ended in a complete line without its newline: skip to it.
			let k = 0;
			while (k < chunk.length && (chunk[k] === 0x20 || chunk[k] === 0x09 || chunk[k] === 0x0d)) k++;
			this.offset += k;
			chunk = chunk.subarray(k);
			if (chunk.length === 0) return;
			this.unterminated = false;
			if (chunk[0] !== NEWLINE) {
				this.diverged = true; // that line goes on: read whole, it is not what was parsed
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
				this.span(head, head.length - 1);
			}
			buf = chunk.subarray(nl + 1);
		}
		const last = buf.lastIndexOf(NEWLINE);
		if (last !== -1) this.span(buf, last);
		if (last + 1 < buf.length) this.hold(buf.subarray(last + 1));
	}

	/**
	 * The complete lines of `buf` up to the newline at `last`. Valid UTF-8 (the
	 * common case) is decoded in slices of a few lines, so small strings die
	 * young; a span with a bad byte goes line by line, to name the line.
	 */
	private span(buf: Buffer, last: number): void {
		if (!isUtf8(buf.subarray(0, last))) {
			for (let start = 0; start <= last; ) {
				const nl = buf.indexOf(NEWLINE, start);
				const bytes = buf.subarray(start, nl);
				if (!isUtf8(bytes)) this.handler.onReplacedBytes(this.line + 1);
				this.emit(bytes.toString("utf8"), this.offset + start, bytes.length);
				start = nl + 1;
			}
			this.offset += last + 1;
			return;
		}
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
				this.emit(text.slice(start, nl), this.offset + byte, byteEnd - byte);
				start = nl + 1;
				byte = byteEnd + 1;
			}
			from = to + 1;
		}
		this.offset += last + 1;
	}

	private emit(text: string, offset: number, length: number, parsed?: { value: unknown }): void {
		const line = ++this.line;
		this.unterminated = false;
		if (length > this.maxLineBytes) {
			this.tooLong(line);
			return;
		}
		if (parsed === undefined) this.handler.onLine(text, line, offset, length);
		else this.handler.onLine(text, line, offset, length, parsed.value);
	}

	private tooLong(line: number): void {
		const reason = `line is longer than ${this.maxLineBytes} bytes`;
		if (this.stream) throw new ContextError("line_too_long", reason, { file: this.file, line });
		this.handler.onBadLine("line_too_long", reason, line);
	}

	/** Keeps the start of an unfinished line, or skips it once it is too long. */
	private hold(piece: Buffer): void {
		if (this.skipping) {
			this.offset += piece.length;
			return;
		}
		this.pendingBytes += piece.length;
		if (this.pendingBytes > this.maxLineBytes) {
			this.offset += this.pendingBytes;
			this.pending = [];
			this.pendingBytes = 0;
			this.skipping = true;
			this.tooLong(++this.line);
			return;
		}
		this.pending.push(Buffer.from(piece)); // the reader reuses its buffer
	}

	/** The bytes on disk end here: a last line without a newline is parsed, or skipped as torn. */
	end(): void {
		if (this.diverged || this.pendingBytes === 0) return;
		const rest = Buffer.concat(this.pending);
		this.pending = [];
		this.pendingBytes = 0;
		const utf8 = isUtf8(rest);
		if (!this.handler.hasHeader) {
			// Nothing to salvage: the line is read like any other (and its error stops the read).
			this.offset += rest.length;
			if (!utf8) this.handler.onReplacedBytes(this.line + 1);
			this.emit(rest.toString("utf8"), this.offset - rest.length, rest.length);
			this.unterminated = true;
			return;
		}
		const text = rest.toString("utf8");
		let parsed: { value: unknown } | undefined;
		let reason = "";
		try {
			parsed = { value: text.trim() === "" ? undefined : JSON.parse(text) };
		} catch {
			const error = locateJsonError(text);
			reason = `${error.reason} at column ${error.column}${utf8 ? "" : ", not valid UTF-8"}`;
		}
		if (parsed !== undefined) {
			if (!utf8) this.handler.onReplacedBytes(this.line + 1);
			this.offset += rest.length;
			this.emit(text, this.offset - rest.length, rest.length, parsed);
			this.unterminated = true;
			return;
		}
		// Not consumed: if the writer finishes the line later, a reload reads it whole.
		this.tornLine = {
			severity: "warning",
			code: "torn_line",
			message: `last line is incomplete (no newline, ${reason}); skipped as a crash mid-append`,
			file: this.file,
			line: this.line + 1,
		};
	}

	/** Whether no byte at all was seen (an empty file). */
	get empty(): boolean {
		return this.offset === 0 && this.pendingBytes === 0 && !this.skipping && this.line === 0;
	}
}

/** `bytes` as a Buffer: itself when it is one, else a Buffer over the same memory (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
	return Buffer.isBuffer(bytes)
		? bytes
		: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * An imported log as UTF-8 bytes, in buffers to write one after the other:
 * each line encoded on its own, into room enough for any text of its length
 * (3 bytes a UTF-16 unit at most), so no text of the whole log is made and
 * no line is measured first. The bytes equal the log's text as
 * `JSON.stringify` writes each entry (./entries.ts `writeLog`).
 *
 * An entry holding a long string (a pasted image, a tool's whole output) is
 * written a piece at a time, never as one text: the text `JSON.stringify`
 * makes of a long value is a rope, and encoding a rope first copies it whole
 * into fresh memory (twice its length when it holds one character beyond
 * Latin-1), pages the process touches for that line alone. Measured on a
 * Claude Code folder with five such lines (2.8 MB of its 6.8): 1,282 of the
 * 1,863 page faults of writing its logs were those copies; written in
 * pieces, an import of the folder touches 1,130 fewer pages and takes 0.97x
 * the time (median of 11 runs side by side; a Codex folder, with no such
 * line, the same time).
 */
import type { Obj } from "./records.js";

/** The size of the buffers filled (a longer text gets one of its own). */
const CHUNK_BYTES = 1 << 20;
/** A string this long or longer is written in pieces of about this length. */
const LONG = 1 << 16;

/** Buffers filled one after the other, each new one from `alloc`. */
class Chunks {
	private readonly done: Buffer[] = [];
	private chunk: Buffer;
	private at = 0;

	constructor(private readonly alloc: (size: number) => Buffer) {
		this.chunk = alloc(CHUNK_BYTES);
	}

	/** Appends `text` as UTF-8, and a line feed after it when `end`. */
	text(text: string, end = false): void {
		const room = text.length * 3 + 1;
		if (this.chunk.length - this.at < room) {
			if (this.at > 0) this.done.push(this.chunk.subarray(0, this.at));
			this.chunk = this.alloc(Math.max(CHUNK_BYTES, room));
			this.at = 0;
		}
		this.at += this.chunk.write(text, this.at, "utf8");
		if (end) this.chunk[this.at++] = 0x0a;
	}

	/** The buffers, the last one cut where its bytes end. */
	buffers(): Buffer[] {
		return [...this.done, this.chunk.subarray(0, this.at)];
	}
}

/**
 * The log's lines as bytes: `head`, then each entry; an entry with `raw`
 * (the JSON text of its `data`, kept as the source had it) gets that text
 * as its last field.
 */
export function logBytes(
	head: Obj,
	entries: readonly Obj[],
	rawOf: (entry: Obj) => string | undefined,
	alloc: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer[] {
	const out = new Chunks(alloc);
	out.text(JSON.stringify(head), true);
	for (const e of entries) {
		const raw = rawOf(e);
		if (holdsLong(e, SHALLOW)) writeLong(out, e, raw !== undefined);
		else {
			const json = JSON.stringify(e);
			if (raw === undefined) {
				out.text(json, true);
				continue;
			}
			out.text(json.slice(0, -1));
		}
		if (raw !== undefined) {
			out.text(',"data":');
			out.text(raw);
			out.text("}");
		}
		out.text("", true);
	}
	return out.buffers();
}

/**
 * How deep in an entry long strings are looked for: where messages keep
 * them (`message.content[i].text`, `message.details.stdout`,
 * `message.details[i].source.data`); one deeper is written as before.
 */
const SHALLOW = 5;

/**
 * Whether `value` holds a string of {@link LONG} characters or more, at most
 * `depth` levels down, in plain data (no `toJSON` on the way).
 */
function holdsLong(value: unknown, depth = Number.POSITIVE_INFINITY): boolean {
	if (typeof value === "string") return value.length >= LONG;
	if (typeof value !== "object" || value === null || depth === 0) return false;
	if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
	if (Array.isArray(value)) {
		for (const item of value) if (holdsLong(item, depth - 1)) return true;
		return false;
	}
	for (const key of Object.keys(value)) if (holdsLong((value as Obj)[key], depth - 1)) return true;
	return false;
}

/**
 * Writes `value` as `JSON.stringify` would (an object without its last `}`
 * when `open`), walking only down to its long strings: any part without
 * one is `JSON.stringify`'s own text.
 */
function writeLong(out: Chunks, value: unknown, open = false): void {
	if (typeof value === "string") {
		writeString(out, value);
		return;
	}
	if (!holdsLong(value)) {
		out.text(JSON.stringify(value) ?? "null");
		return;
	}
	if (Array.isArray(value)) {
		out.text("[");
		value.forEach((item, i) => {
			if (i > 0) out.text(",");
			if (item === undefined || typeof item === "function" || typeof item === "symbol")
				out.text("null");
			else writeLong(out, item);
		});
		out.text("]");
		return;
	}
	out.text("{");
	let first = true;
	for (const key of Object.keys(value as Obj)) {
		const item = (value as Obj)[key];
		if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
		out.text(`${first ? "" : ","}${JSON.stringify(key)}:`);
		first = false;
		writeLong(out, item);
	}
	if (!open) out.text("}");
}

/** A string's JSON text, a piece of about {@link LONG} characters at a time (no surrogate pair split). */
function writeString(out: Chunks, text: string): void {
	if (text.length < LONG) {
		out.text(JSON.stringify(text));
		return;
	}
	out.text('"');
	for (let i = 0; i < text.length; ) {
		let j = Math.min(text.length, i + LONG);
		const last = text.charCodeAt(j - 1);
		if (j < text.length && last >= 0xd800 && last <= 0xdbff) j--;
		out.text(JSON.stringify(text.slice(i, j)).slice(1, -1));
		i = j;
	}
	out.text('"');
}

/**
 * Building our log's entries and writing the log: the header, entries with
 * their fields in one fixed order (so the same source gives the same bytes),
 * and the `import_source` custom entry that records where the log came from
 * and what became of every source record. Pure.
 */
import type { Diagnostic } from "../errors.js";
import type { RecordedCall } from "../log/open-log.js";
import type { RecordCounts, SourceFormat } from "./accounting.js";
import { logBytes as writeLogBytes } from "./log-bytes.js";
import type { Obj } from "./records.js";

/** An entry of our log, as the converters build it (fields in writing order). */
export type OutEntry = Obj & {
	type: string;
	id: string;
	parentId: string | null;
	timestamp: string;
};

/** What a converter makes of one source file. */
export interface Converted {
	/** The session header (version 3). */
	header: Obj;
	entries: OutEntry[];
	/** The source line each entry comes from, index for index with `entries`. */
	lines: number[];
	/** Side data for the `import_source` entry (sidechains, sub-agents, forks). */
	details: Obj;
}

/** The result of importing one file. */
export interface ImportResult {
	format: SourceFormat;
	/** The log in our format, as written (for a converted file, made when first read). */
	readonly text: string;
	/** {@link text} as UTF-8 bytes, in buffers to write one after the other: what a file of the log holds. */
	bytes(): readonly Buffer[];
	/**
	 * A converted file's log as the values its lines parse to (see
	 * {@link logValues}): what a reader reads instead of the text.
	 */
	values?: () => { header: Obj; entries: Obj[] };
	/** For each entry line of `text` (the header is line 1), the source line it comes from. */
	sourceLines: number[];
	warnings: Diagnostic[];
	counts: RecordCounts;
	/** Source records read (the sum of every count). */
	records: number;
	/** The model calls the source records as billed, each response once (none for a log of ours). */
	calls?: RecordedCall[];
}

/** The custom type of the entry that records an import's provenance and counts. */
export const IMPORT_SOURCE = "import_source";

/** An entry with the common fields first. */
export function entry(
	type: string,
	id: string,
	parentId: string | null,
	timestamp: string,
	fields: Obj,
): OutEntry {
	return { type, id, parentId, timestamp, ...fields };
}

/** Where an entry keeps the JSON text of its `data`, written as it is (JSON.stringify skips symbols). */
const RAW = Symbol("raw data");

/**
 * A `custom` entry holding a source record whole, out of the context. Given
 * the record's JSON text, the entry writes it as it was, without
 * serializing it anew.
 */
export function customEntry(
	customType: string,
	id: string,
	parentId: string | null,
	timestamp: string,
	data: unknown,
	text?: string,
): OutEntry {
	if (text === undefined) return entry("custom", id, parentId, timestamp, { customType, data });
	const e = entry("custom", id, parentId, timestamp, { customType });
	(e as Record<symbol, string>)[RAW] = text;
	return e;
}

/** The session header of our format. */
export function header(id: string, timestamp: string, cwd: string, extra: Obj = {}): Obj {
	return { type: "session", version: 3, id, timestamp, cwd, ...extra };
}

/** The log's text: the header, then one entry a line, each line ending with `\n`. */
export function writeLog(head: Obj, entries: readonly OutEntry[]): string {
	return Buffer.concat(logBytes(head, entries)).toString("utf8");
}

/**
 * {@link writeLog}'s text as UTF-8 bytes, in buffers to write one after the
 * other (./log-bytes.ts).
 */
export function logBytes(
	head: Obj,
	entries: readonly OutEntry[],
	alloc?: (size: number) => Buffer,
): Buffer[] {
	return writeLogBytes(head, entries, rawOf, alloc);
}

/** The JSON text of an entry's `data` kept as the source had it, if any. */
function rawOf(e: Obj): string | undefined {
	return (e as Record<symbol, string | undefined>)[RAW];
}

/**
 * The log {@link writeLog} writes, as the values a reader parses from its
 * lines, without writing or parsing text: each entry itself when it is
 * plain JSON data not shared with an entry before it, else what
 * `JSON.parse` gives of its line (an entry holding a record's text, one
 * with an `undefined` or a number JSON cannot hold, one sharing an object).
 */
export function logValues(
	head: Obj,
	entries: readonly OutEntry[],
): { header: Obj; entries: Obj[] } {
	const seen = new Set<object>();
	const value = (e: Obj): Obj => {
		const raw = rawOf(e);
		if (raw !== undefined) return JSON.parse(`${JSON.stringify(e).slice(0, -1)},"data":${raw}}`);
		return isJsonData(e, seen) ? e : JSON.parse(JSON.stringify(e));
	};
	return { header: value(head), entries: entries.map(value) };
}

/**
 * Whether `value` is what `JSON.parse` of its JSON text would give: plain
 * objects and arrays (none met before: `seen`), strings, booleans, null and
 * finite numbers other than -0.
 */
function isJsonData(value: unknown, seen: Set<object>): boolean {
	switch (typeof value) {
		case "string":
		case "boolean":
			return true;
		case "number":
			return Number.isFinite(value) && !Object.is(value, -0);
		case "object": {
			if (value === null) return true;
			if (seen.has(value)) return false;
			seen.add(value);
			if (Array.isArray(value)) {
				for (let i = 0; i < value.length; i++) if (!isJsonData(value[i], seen)) return false;
				return Object.getPrototypeOf(value) === Array.prototype;
			}
			const proto: unknown = Object.getPrototypeOf(value);
			if (proto !== Object.prototype && proto !== null) return false;
			if (Object.getOwnPropertySymbols(value).length > 0) return false;
			const fields = value as Record<string, unknown>;
			for (const key in fields) if (!isJsonData(fields[key], seen)) return false;
			return !("toJSON" in fields);
		}
		default:
			return false;
	}
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** An ISO timestamp from a source value, else `fallback`. */
export function isoTime(value: unknown, fallback: string): string {
	if (typeof value !== "string") return fallback;
	if (ISO.test(value)) return value;
	const t = Date.parse(value);
	return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/** Milliseconds since the epoch of an ISO timestamp (0 when it is not one). */
export function millis(iso: string): number {
	const t = Date.parse(iso);
	return Number.isNaN(t) ? 0 : t;
}

/**
 * Puts the entries that follow `leaf` in file order and do not descend from
 * it before it, so that `leaf` (or a descendant, never in the context) is
 * the last entry, which the reader takes as the leaf. Order is otherwise kept.
 */
export function endWithLeaf(entries: OutEntry[], lines: number[], leaf: string | undefined): void {
	if (leaf === undefined) return;
	const at = entries.findIndex((e) => e.id === leaf);
	if (at < 0 || at === entries.length - 1) return;
	const parent = new Map<string, string | null>();
	for (const e of entries) parent.set(e.id, e.parentId);
	const descends = (id: string): boolean => {
		let x: string | null | undefined = id;
		for (let steps = 0; x != null && steps <= entries.length; steps++) {
			if (x === leaf) return true;
			x = parent.get(x);
		}
		return false;
	};
	const moved: number[] = [];
	const kept: number[] = [];
	for (let i = at + 1; i < entries.length; i++)
		(descends((entries[i] as OutEntry).id) ? kept : moved).push(i);
	if (moved.length === 0) return;
	const order = [...Array.from({ length: at }, (_, i) => i), ...moved, at, ...kept];
	const e2 = order.map((i) => entries[i] as OutEntry);
	const l2 = order.map((i) => lines[i] as number);
	// In place, element by element: a splice with a spread passes one argument per entry.
	e2.forEach((e, i) => {
		entries[i] = e;
		lines[i] = l2[i] as number;
	});
}

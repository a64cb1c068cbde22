/**
 * What an import did with each source record, as data: counts per record
 * type (mapped into the log, kept as a `custom` entry, or skipped with a
 * warning) and the located warnings themselves. Every record a converter
 * reads goes through exactly one of {@link Accounting.mapped},
 * {@link Accounting.custom} or {@link Accounting.warned}, so the counts add
 * up to the records read: nothing is dropped silently.
 */
import type { Diagnostic, ErrorCode } from "../errors.js";

/** The formats an import reads. `theway` is our own (and pi's) format, passed through. */
export const SOURCE_FORMATS = ["claude-code", "codex", "theway"] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** One parsed line of a source file. */
export interface SourceRecord {
	value: unknown;
	/** 1-based line in the source file. */
	line: number;
	/** The line's JSON text, to keep a record whole without writing it anew. */
	text: string;
}

/** What became of the records of one type. */
export interface RecordCount {
	mapped: number;
	custom: number;
	warned: number;
}

/** Per record type (`user`, `event_msg/token_count`, …), sorted by name when written. */
export type RecordCounts = Record<string, RecordCount>;

/** The warnings and counts of one import, located in `file`. */
export class Accounting {
	readonly warnings: Diagnostic[] = [];
	private readonly byType = new Map<string, RecordCount>();

	constructor(readonly file: string) {}

	private count(type: string): RecordCount {
		let c = this.byType.get(type);
		if (c === undefined) {
			c = { mapped: 0, custom: 0, warned: 0 };
			this.byType.set(type, c);
		}
		return c;
	}

	/** A record of `type` became (part of) a log entry the projection reads. */
	mapped(type: string): void {
		this.count(type).mapped++;
	}

	/** A record of `type` was kept whole as a `custom` entry, out of the context. */
	custom(type: string): void {
		this.count(type).custom++;
	}

	/** A record of `type` was skipped: a warning says where and why. */
	warned(
		type: string,
		line: number,
		reason: string,
		code: ErrorCode = "unknown_record",
		column?: number,
	): void {
		this.count(type).warned++;
		this.warn(line, reason, code, column);
	}

	/** A warning about a record that was still mapped (a lossy detail). */
	warn(line: number, reason: string, code: ErrorCode = "import_lossy", column?: number): void {
		this.warnings.push({
			severity: "warning",
			code,
			message: reason,
			file: this.file,
			line,
			...(column === undefined ? {} : { column }),
		});
	}

	/** The counts, by type name. */
	counts(): RecordCounts {
		const out: RecordCounts = {};
		for (const key of [...this.byType.keys()].sort()) out[key] = { ...this.count(key) };
		return out;
	}

	/** How many records were accounted for in all. */
	total(): number {
		let n = 0;
		for (const c of this.byType.values()) n += c.mapped + c.custom + c.warned;
		return n;
	}
}

/** The sum of counts, per kind. */
export function sumCounts(counts: RecordCounts): RecordCount {
	const total = { mapped: 0, custom: 0, warned: 0 };
	for (const c of Object.values(counts)) {
		total.mapped += c.mapped;
		total.custom += c.custom;
		total.warned += c.warned;
	}
	return total;
}

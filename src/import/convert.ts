/**
 * One source file to our log: read its records, tell its format, convert,
 * and write the log with its `import_source` entry first. The single entry
 * point of the importers, used by `theway-context import` and by the log
 * reader for a foreign file given to `render`, `inspect` and the rest. Pure:
 * bytes in, text out; the same bytes give the same text.
 */
import { basename } from "node:path";
import { ContextError } from "../errors.js";
import type { RecordedCall } from "../log/open-log.js";
import { Accounting, SOURCE_FORMATS, type SourceFormat, type SourceRecord } from "./accounting.js";
import { type BillCollector, billCollector } from "./bill.js";
import { convertClaudeCode } from "./claude-code.js";
import { convertCodex } from "./codex.js";
import { DETECT_RECORDS, detectFormat } from "./detect.js";
import {
	type Converted,
	customEntry,
	IMPORT_SOURCE,
	type ImportResult,
	logBytes,
	logValues,
	type OutEntry,
} from "./entries.js";
import { DEFAULT_MAX_RECORD_BYTES, isObj, recordsOf } from "./records.js";
import { IMPORT_TOOLS, toolsOf } from "./tools.js";

export interface ImportOptions {
	/** The source's format; `auto` (the default) tells it from the records. */
	from?: "auto" | SourceFormat;
	/** A line longer than this is skipped with a warning (default 64 MiB). */
	maxRecordBytes?: number;
	/** Where the log's bytes are written (default: fresh buffers); see `BufferPool` (src/log/buffer-pool.ts). */
	alloc?: (size: number) => Buffer;
}

/** Each format as a message names it. */
const FORMAT_NAMES: Record<SourceFormat, string> = {
	"claude-code": "a Claude Code transcript",
	codex: "a Codex rollout",
	theway: "a theway log",
};

/** The formats `--from` names. */
export const FORMATS = ["auto", ...SOURCE_FORMATS] as const;

/**
 * Whether `bytes` start with our session header: the first line that is
 * JSON (a blank line, a comment or a torn line before it is skipped, as the
 * log reader skips it).
 */
export function isOwnFormat(bytes: Buffer): boolean {
	let start = 0;
	while (start < bytes.length) {
		let end = bytes.indexOf(0x0a, start);
		if (end < 0) end = bytes.length;
		const text = bytes.toString("utf8", start, Math.min(end, start + 1024 * 1024)).trim();
		if (text !== "") {
			try {
				const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
				return isObj(value) && value.type === "session";
			} catch {
				// Not JSON: skipped, as the reader skips it.
			}
		}
		start = end + 1;
	}
	return false;
}

/**
 * Imports the bytes of one session file named `file`. Our own format comes
 * back unchanged; a file of no known format is a located `unknown_format` error.
 */
export function importSession(
	bytes: Buffer,
	file: string,
	options: ImportOptions = {},
): ImportResult {
	const from = options.from ?? "auto";
	if (from === "theway" && !isOwnFormat(bytes)) {
		throw new ContextError(
			"unknown_format",
			"given as a theway log, but its first JSON line is not a session header (import it with --from auto)",
			{ file, line: 1 },
		);
	}
	if (from === "theway" || (from === "auto" && isOwnFormat(bytes))) {
		const text = bytes.toString("utf8");
		const lines = text.split("\n").length - 1;
		return {
			format: "theway",
			text,
			bytes: () => [bytes],
			sourceLines: Array.from({ length: lines }, (_, i) => i + 2),
			warnings: [],
			counts: {},
			records: 0,
		};
	}
	// A file whose conversation is all sidechain is a sub-agent's transcript: that is its main line.
	// Read as its first conversation record says; read again the other way if the rest says otherwise.
	const first = convertRecords(bytes, file, from, options);
	const { acc, format, converted, calls } =
		(first.converted.details.onlySidechains === true) === first.sideAsMain
			? first
			: convertRecords(bytes, file, from, options, !first.sideAsMain);
	delete converted.details.onlySidechains;
	settleIds(converted.entries, converted.lines, acc);
	const counts = acc.counts();
	const source = customEntry(
		IMPORT_SOURCE,
		"import-source",
		null,
		String(converted.header.timestamp),
		{
			format,
			source: basename(file),
			records: acc.total(),
			counts,
			...converted.details,
		},
	);
	const tools = toolsOf(converted.entries);
	const inventory =
		tools.length === 0
			? []
			: [customEntry("session_metadata", IMPORT_TOOLS, null, source.timestamp, { tools })];
	const warnings = [...acc.warnings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
	const entries = [source, ...inventory, ...converted.entries];
	let logged: Buffer[] | undefined;
	let text: string | undefined;
	const written = () => {
		logged ??= logBytes(converted.header, entries, options.alloc);
		return logged;
	};
	return {
		format,
		get text() {
			text ??= Buffer.concat(written()).toString("utf8");
			return text;
		},
		bytes: written,
		values: () => logValues(converted.header, entries),
		sourceLines: [1, ...inventory.map(() => 1), ...converted.lines],
		warnings,
		counts,
		records: acc.total(),
		calls,
	};
}

/**
 * Makes ids unique and parents resolvable, as `--strict` requires: a repeated
 * id gets its line appended (later references name the later entry, as the
 * reader's "later wins" would), and a parent that names no earlier entry
 * becomes null, each with a warning.
 */
function settleIds(entries: OutEntry[], lines: readonly number[], acc: Accounting): void {
	const current = new Map<string, string>([
		["import-source", "import-source"],
		[IMPORT_TOOLS, IMPORT_TOOLS],
	]);
	entries.forEach((e, i) => {
		const line = lines[i] as number;
		if (e.parentId !== null) {
			const parent = current.get(e.parentId);
			if (parent === undefined) {
				acc.warn(
					line,
					`the parent ${JSON.stringify(e.parentId)} is not in the log: the entry starts a new branch`,
				);
				e.parentId = null;
			} else e.parentId = parent;
		}
		if (current.has(e.id)) {
			const renamed = uniqueName(`${e.id}#${line}`, current);
			acc.warn(
				line,
				`the id ${JSON.stringify(e.id)} is used twice: this one is ${JSON.stringify(renamed)}`,
			);
			if (e.firstKeptEntryId === e.id) e.firstKeptEntryId = renamed;
			current.set(e.id, renamed);
			current.set(renamed, renamed);
			e.id = renamed;
		} else current.set(e.id, e.id);
	});
}

function uniqueName(base: string, taken: ReadonlyMap<string, string>): string {
	let name = base;
	for (let k = 2; taken.has(name); k++) name = `${base}.${k}`;
	return name;
}

/**
 * Reads the records one at a time: the first ones tell the format, then
 * each goes to the converter. A Claude Code transcript's sidechains are its
 * main line with `sideAsMain`; by default, when its first conversation
 * record is on a sidechain.
 */
function convertRecords(
	bytes: Buffer,
	file: string,
	from: "auto" | SourceFormat,
	options: ImportOptions,
	sideAsMain?: boolean,
): {
	acc: Accounting;
	format: "claude-code" | "codex";
	converted: Converted;
	calls: RecordedCall[];
	sideAsMain: boolean;
} {
	const { acc, format, head, records } = readHead(bytes, file, from, options);
	const name = basename(file).replace(/\.jsonl$/, "");
	const bill = billCollector(format);
	for (const r of head) bill.record(r.value, r.line);
	const rest = { [Symbol.iterator]: () => billed(records, bill) };
	const side = sideAsMain ?? (format === "claude-code" && startsOnSidechain(head));
	const converted =
		format === "claude-code"
			? convertClaudeCode(head, rest, acc, name, side)
			: convertCodex(head, rest, acc, name, (line) => bill.billedElsewhere(line));
	return { acc, format, converted, calls: bill.calls(), sideAsMain: side };
}

/**
 * The model calls a Claude Code or Codex file records as billed, each API
 * response once (as {@link importSession} gives them), without converting
 * it; none for a log of ours.
 */
export function recordedCalls(bytes: Buffer, file: string): RecordedCall[] {
	if (isOwnFormat(bytes)) return [];
	const { format, head, records } = readHead(bytes, file, "auto", {});
	const bill = billCollector(format);
	for (const r of head) bill.record(r.value, r.line);
	for (const r of records) bill.record(r.value, r.line);
	return bill.calls();
}

/** Whether the first conversation record of a Claude Code transcript is on a sidechain. */
function startsOnSidechain(head: readonly SourceRecord[]): boolean {
	for (const { value } of head) {
		if (!isObj(value) || (value.type !== "user" && value.type !== "assistant")) continue;
		if (isObj(value.message)) return value.isSidechain === true;
	}
	return false;
}

/** The first records of a file, the format they tell (a located error when none), and the rest to read. */
function readHead(
	bytes: Buffer,
	file: string,
	from: "auto" | SourceFormat,
	options: ImportOptions,
): {
	acc: Accounting;
	format: "claude-code" | "codex";
	head: SourceRecord[];
	records: Generator<SourceRecord>;
} {
	const acc = new Accounting(file);
	const records = recordsOf(bytes, acc, options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES);
	const head: SourceRecord[] = [];
	while (head.length < DETECT_RECORDS) {
		const next = records.next();
		if (next.done === true) break;
		head.push(next.value);
	}
	const detected = detectFormat(head);
	if (from !== "auto" && detected !== undefined && detected !== from) {
		throw new ContextError(
			"unknown_format",
			`given as ${FORMAT_NAMES[from]}, but its records are those of ${FORMAT_NAMES[detected]} (import it with --from ${detected}, or auto)`,
			{ file, line: head[0]?.line ?? 1 },
		);
	}
	const format = from === "auto" ? detected : from;
	if (format === undefined || format === "theway") {
		throw new ContextError(
			"unknown_format",
			head.length === 0
				? "no session records: the file is empty or holds no JSON lines"
				: "not a Claude Code, Codex or theway session log: no record says which (give --from)",
			{ file, line: head[0]?.line ?? 1 },
			{ diagnostics: acc.warnings.length > 20 ? [] : acc.warnings },
		);
	}
	return { acc, format, head, records };
}

/** The records as they come, each shown to the bill on its way to the converter. */
function* billed(records: Iterator<SourceRecord>, bill: BillCollector): Generator<SourceRecord> {
	for (let next = records.next(); next.done !== true; next = records.next()) {
		bill.record(next.value.value, next.value.line);
		yield next.value;
	}
}

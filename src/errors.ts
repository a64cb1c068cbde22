/**
 * The one error type of the project, and diagnostics as data.
 *
 * Every expected failure (bad input, bad template, wrong usage) is a
 * {@link ContextError} with a stable string `code` and, where one exists, a
 * location. Anything else that escapes is a bug.
 */

/** Where something happened: a file and, when known, a 1-based line and column. */
export interface Location {
	file?: string;
	line?: number;
	column?: number;
}

/**
 * The codes of errors the library's callers can get: reading a log,
 * compiling and rendering a template set, converting messages. Stable: a
 * caller may branch on them.
 */
export const LIBRARY_ERROR_CODES = [
	"io",
	"missing_header",
	"bad_header",
	"unsupported_version",
	"bad_json",
	"bad_utf8",
	"bad_entry",
	"duplicate_id",
	"unknown_parent",
	"parent_cycle",
	"unknown_leaf",
	"line_too_long",
	"file_replaced",
	"bad_front_matter",
	"bad_template",
	"bad_categories",
	"bad_tools",
	"section_order",
	"unknown_template_version",
	"template_type",
	"unknown_partial",
	"partial_cycle",
	"unknown_helper",
	"render",
	"too_large",
	"unknown_format",
	"bad_options",
	"internal",
] as const;

/** The codes of warnings: what a tolerant read skipped or repaired, as diagnostics. */
export const WARNING_CODES = [
	"torn_line",
	"skipped_line",
	"byte_order_mark",
	"blank_before_header",
	"incomplete_header",
	"repeated_header",
	"bad_timestamp",
	"more_diagnostics",
	"unknown_entry_type",
	"unknown_message_role",
	"first_kept_not_on_branch",
	"summary_cut",
	"ignored_folder",
	"unknown_record",
	"import_lossy",
	"bad_usage",
	"answer_without_context",
] as const;

/**
 * The codes only the tools give (the command line and the build step's
 * checks of templates, fixtures, snapshots and the README): never thrown by
 * a library call.
 */
export const TOOL_CODES = [
	"usage",
	"version_not_bumped",
	"snapshot_drift",
	"readme_drift",
	"over_budget",
	"lock_stale",
	"no_fixtures",
	"bad_prices",
	"bad_assertions",
	"bad_eval",
	"missing_key",
	"max_cost",
	"bad_units",
	"shadowed_price",
	"unused_price",
] as const;

/** A code the library's callers can get, as an error or a warning. */
export type ErrorCode = (typeof LIBRARY_ERROR_CODES)[number] | (typeof WARNING_CODES)[number];
/** A code of the tools alone. */
export type ToolCode = (typeof TOOL_CODES)[number];
/** Any code an error or a diagnostic of this project may carry. */
export type AnyCode = ErrorCode | ToolCode;

/** A finding that does not stop the run (or, with severity "error", one of many collected). */
export interface Diagnostic extends Location {
	severity: "warning" | "error";
	code: AnyCode;
	message: string;
	/** The offending source lines with a caret, when the finding points into a file. */
	frame?: string;
}

/** The project's typed error: a code, a message and a location. */
export class ContextError extends Error {
	override readonly name = "ContextError";
	readonly code: AnyCode;
	/** The message without its location. */
	readonly reason: string;
	readonly file: string | undefined;
	readonly line: number | undefined;
	readonly column: number | undefined;
	/** Further findings of the same run (e.g. every template error of a build). */
	readonly diagnostics: readonly Diagnostic[];

	constructor(
		code: AnyCode,
		reason: string,
		location: Location = {},
		options: { cause?: unknown; diagnostics?: readonly Diagnostic[] } = {},
	) {
		super(
			formatLocated(reason, location),
			options.cause === undefined ? {} : { cause: options.cause },
		);
		this.code = code;
		this.reason = reason;
		this.file = location.file;
		this.line = location.line;
		this.column = location.column;
		this.diagnostics = options.diagnostics ?? [];
	}

	/** This error as a diagnostic (its first collected one, when it has several). */
	toDiagnostic(): Diagnostic {
		return {
			severity: "error",
			code: this.code,
			message: this.reason,
			...(this.file === undefined ? {} : { file: this.file }),
			...(this.line === undefined ? {} : { line: this.line }),
			...(this.column === undefined ? {} : { column: this.column }),
		};
	}
}

/** `file:line:column: reason`, leaving out what is unknown. */
export function formatLocated(reason: string, location: Location): string {
	const where = formatLocation(location);
	return where === "" ? reason : `${where}: ${reason}`;
}

export function formatLocation({ file, line, column }: Location): string {
	let where = file ?? "";
	if (line !== undefined) where += `${where === "" ? "line " : ":"}${line}`;
	if (line !== undefined && column !== undefined) where += `:${column}`;
	return where;
}

/** A path into a value (a zod issue's, say) as people write it: `a.b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
	let out = "";
	for (const key of path) {
		if (typeof key === "number") out += `[${key}]`;
		else out += out === "" ? String(key) : `.${String(key)}`;
	}
	return out;
}

/** One line per diagnostic: `warning: file:line: message`. */
export function formatDiagnostic(d: Diagnostic): string {
	const head = `${d.severity}: ${formatLocated(d.message, d)}`;
	return d.frame === undefined ? head : `${head}\n${d.frame}`;
}

/** Whether `value` is a {@link ContextError} (an expected failure, with a code and a location). */
export function isContextError(value: unknown): value is ContextError {
	return value instanceof ContextError;
}

/**
 * The lines around `line` of `text` (1-based), with a gutter and, when a
 * column is known, a caret under it:
 *
 *       3 | <tools>
 *     > 4 | {{#each toolGrups}}
 *         |         ^
 */
export function codeFrame(text: string, line: number, column?: number): string | undefined {
	const lines = text.split(/\r?\n/);
	const current = lines[line - 1];
	if (current === undefined) return undefined;
	const width = String(line).length;
	const previous = lines[line - 2];
	const rows =
		previous === undefined ? [] : [`  ${String(line - 1).padStart(width)} | ${previous}`];
	rows.push(`> ${String(line).padStart(width)} | ${current}`);
	if (column !== undefined) {
		rows.push(`  ${" ".repeat(width)} | ${current.slice(0, column - 1).replace(/[^\t]/g, " ")}^`);
	}
	return rows.join("\n");
}

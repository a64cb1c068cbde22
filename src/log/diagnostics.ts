/**
 * A bounded list of warnings. A log of a million bad lines must not hold a
 * million diagnostics: the first {@link DEFAULT_KEPT} are kept as they are,
 * the rest only counted per code, and {@link Diagnostics.list} ends with one
 * summary saying how many more there were.
 */
import {
	type AnyCode,
	ContextError,
	type Diagnostic,
	type ErrorCode,
	LIBRARY_ERROR_CODES,
} from "../errors.js";

/** How many warnings of one source are kept whole. */
export const DEFAULT_KEPT = 100;

export class Diagnostics {
	private readonly kept: Diagnostic[] = [];
	private readonly dropped = new Map<AnyCode, number>();
	private droppedTotal = 0;

	constructor(
		readonly file: string,
		private readonly limit = DEFAULT_KEPT,
	) {}

	/** Records a warning (kept whole while under the limit). */
	push(d: Diagnostic): void {
		if (this.kept.length < this.limit) {
			this.kept.push(d);
			return;
		}
		this.dropped.set(d.code, (this.dropped.get(d.code) ?? 0) + 1);
		this.droppedTotal++;
	}

	/** A warning of `code` at `line` of the file. */
	warn(code: ErrorCode, message: string, line?: number, column?: number): void {
		this.push({
			severity: "warning",
			code,
			message,
			file: this.file,
			...(line === undefined ? {} : { line }),
			...(column === undefined ? {} : { column }),
		});
	}

	/** Whether the next warning would only be counted (its words are not needed). */
	get full(): boolean {
		return this.kept.length >= this.limit;
	}

	/** How many warnings were recorded, kept or not. */
	get count(): number {
		return this.kept.length + this.droppedTotal;
	}

	/** The kept warnings, then one summary of those only counted. */
	list(): Diagnostic[] {
		if (this.droppedTotal === 0) return [...this.kept];
		const byCode = [...this.dropped]
			.sort(([a], [b]) => (a < b ? -1 : 1))
			.map(([code, n]) => `${code}: ${n}`)
			.join(", ");
		return [
			...this.kept,
			{
				severity: "warning",
				code: "more_diagnostics",
				message: `and ${this.droppedTotal} more warnings not listed (${byCode})`,
				file: this.file,
			},
		];
	}
}

/**
 * What `import --strict` makes of an import's warnings: one error, located
 * at the first record that could not be taken as it is, saying how many
 * there were; undefined when there were none.
 */
export function strictRefusal(
	warnings: readonly Diagnostic[],
	file: string,
): ContextError | undefined {
	const first = warnings[0];
	if (first === undefined) return undefined;
	return new ContextError(
		"bad_entry",
		`refused (--strict): ${warnings.length} record(s) could not be imported as they are; first: ${first.message.replace(/^skipped: /, "")}`,
		locationOf(first, file),
	);
}

/** The warnings of a converted file that say a line could not be read at all. */
const DAMAGE: ReadonlySet<AnyCode> = new Set(["bad_json", "bad_utf8", "line_too_long"]);

/**
 * What strict mode makes of a file of another format read as a log (a
 * Claude Code or Codex file, converted): its first line that could not be
 * read is an error, as in a log of ours. A record type the converter does
 * not know, or a detail it maps with a loss, stays a warning, as an unknown
 * entry type does in a log of ours (and a torn last line, a write in progress).
 */
export function firstDamage(
	warnings: readonly Diagnostic[],
	file: string,
): ContextError | undefined {
	const first = warnings.find((w) => DAMAGE.has(w.code));
	if (first === undefined) return undefined;
	const code = (LIBRARY_ERROR_CODES as readonly AnyCode[]).includes(first.code)
		? first.code
		: "bad_entry";
	return new ContextError(code, first.message.replace(/^skipped: /, ""), locationOf(first, file));
}

function locationOf(d: Diagnostic, file: string): { file: string; line?: number; column?: number } {
	return {
		file: d.file ?? file,
		...(d.line === undefined ? {} : { line: d.line }),
		...(d.column === undefined ? {} : { column: d.column }),
	};
}

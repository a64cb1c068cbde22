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
 * What strict mode makes of the warnings of a file of another format read
 * as a log (a Claude Code or Codex file, converted): one error, located at
 * the first record that could not be taken as it is, saying how many there
 * were; undefined when there were none.
 */
export function strictRefusal(
	warnings: readonly Diagnostic[],
	file: string,
): ContextError | undefined {
	const first = warnings[0];
	if (first === undefined) return undefined;
	const code = (LIBRARY_ERROR_CODES as readonly AnyCode[]).includes(first.code)
		? first.code
		: "bad_entry";
	return new ContextError(
		code,
		`refused (--strict): ${warnings.length} record(s) could not be imported as they are; first: ${first.message.replace(/^skipped: /, "")}`,
		{
			file: first.file ?? file,
			...(first.line === undefined ? {} : { line: first.line }),
			...(first.column === undefined ? {} : { column: first.column }),
		},
	);
}

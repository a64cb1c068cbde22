/**
 * Files of another format, as the log reader meets them: the converter it
 * is handed (the importers' reader, passed down so the log layer knows no
 * format but its own), what it gives back (the converted log's values), and the model calls a source
 * records as billed beside the converted log.
 */
import type { Diagnostic } from "../errors.js";

/**
 * A model call a converted source records as billed, each API response
 * once: what replay's bill sums for a file of another format, where the
 * source knows more than the converted log (sidechains, a resumed copy).
 */
export interface RecordedCall {
	/** The response's own id where the source has one: the same response in two files is one call. */
	key?: string;
	provider: string;
	model: string;
	/** pi's usage fields: `input` is the uncached input. */
	usage: { input: number; cacheRead: number; cacheWrite: number; output: number };
	/** When the call was made (ISO text). */
	timestamp: string;
	/** The source line that records it. */
	line: number;
}

/**
 * A foreign file converted to our log: the header and the entries as the
 * values a reader parses from the lines of the converted log's text, so no
 * text is written and parsed again. Each is a JSON value as `JSON.parse`
 * gives it: plain objects and arrays, finite numbers, no `undefined`, no
 * object shared between two entries.
 */
export interface ForeignLog {
	header: unknown;
	entries: readonly unknown[];
	/** For each entry, the source line it comes from. */
	sourceLines: readonly number[];
	warnings: readonly Diagnostic[];
	calls?: readonly RecordedCall[];
}

/** A foreign file's bytes to our log, with its warnings; undefined when it is of no format the reader knows. */
export type ForeignReader = (
	/**
	 * A Buffer, typed as the Uint8Array it is (the published types need no
	 * `@types/node`), valid during the call only: the reader reuses its memory.
	 */
	bytes: Uint8Array,
	name: string,
) => ForeignLog | undefined;

/**
 * Files of another format, as the log reader meets them: the converter it
 * is handed (the importers' reader, passed down so the log layer knows no
 * format but its own), what it gives back, and the model calls a source
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

/** A foreign file's bytes to our log's text, with its warnings and each entry line's source line. */
export type ForeignReader = (
	/** A Buffer, typed as the Uint8Array it is: the published types need no `@types/node`. */
	bytes: Uint8Array,
	name: string,
) =>
	| {
			text: string;
			sourceLines: readonly number[];
			warnings: readonly Diagnostic[];
			calls?: readonly RecordedCall[];
	  }
	| undefined;

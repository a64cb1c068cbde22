/**
 * The names of the token counters `./tokenizer.ts` loads, apart from the
 * counters themselves: the CLI's option declarations list them, and a
 * `--help` or a usage error must not load a counter to do so.
 */

/** The counters known by name: OpenAI's two encodings, and characters / 4. */
export const TOKENIZER_NAMES = ["o200k", "cl100k", "chars"] as const;

/** One of {@link TOKENIZER_NAMES}. */
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

/** Whether `name` is a tokenizer this module knows. */
export function isTokenizerName(name: string): name is TokenizerName {
	return (TOKENIZER_NAMES as readonly string[]).includes(name);
}

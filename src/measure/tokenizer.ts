/**
 * Token counters. `o200k` and `cl100k` are OpenAI's encodings as
 * `gpt-tokenizer` implements them: exact for the models that use them, an
 * estimate for every other model family. `chars` is the usual rule of thumb
 * (four characters a token) for when no tokenizer fits. The encodings are
 * large tables, loaded on first use only, so commands that never count
 * tokens never pay for them.
 */
import { createRequire } from "node:module";

export const TOKENIZER_NAMES = ["o200k", "cl100k", "chars"] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

/** Counts the tokens of a text. */
export interface Tokenizer {
	name: TokenizerName;
	/** What the counts mean, for people (which encoding; estimate or not). */
	label: string;
	/** Exact for the models of this encoding; false for a rule of thumb. */
	exact: boolean;
	count(text: string): number;
}

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;

const MODULES: Record<Exclude<TokenizerName, "chars">, string> = {
	o200k: "gpt-tokenizer/cjs/encoding/o200k_base",
	cl100k: "gpt-tokenizer/cjs/encoding/cl100k_base",
};

const LABELS: Record<TokenizerName, string> = {
	o200k:
		"o200k_base (exact for GPT-4o and later OpenAI models; an estimate for other model families)",
	cl100k: "cl100k_base (exact for GPT-4 and GPT-3.5; an estimate for other model families)",
	chars: "characters / 4 (a rough estimate for any model)",
};

const loaded = new Map<TokenizerName, Tokenizer>();
const require = createRequire(import.meta.url);

/** Whether `name` is a tokenizer this module knows. */
export function isTokenizerName(name: string): name is TokenizerName {
	return (TOKENIZER_NAMES as readonly string[]).includes(name);
}

/**
 * The tokenizer `name` (default `o200k`), loaded once per process. Session
 * text is counted as text: `<|endoftext|>` and other special-token strings
 * are ordinary characters there, as a provider treats them.
 */
export function loadTokenizerSync(name: TokenizerName = "o200k"): Tokenizer {
	const cached = loaded.get(name);
	if (cached !== undefined) return cached;
	let tokenizer: Tokenizer;
	if (name === "chars") {
		tokenizer = {
			name,
			label: LABELS.chars,
			exact: false,
			count: (text) => Math.ceil(text.length / 4),
		};
	} else {
		const { countTokens } = require(MODULES[name]) as { countTokens: CountTokens };
		const plain = { disallowedSpecial: new Set<string>() };
		tokenizer = {
			name,
			label: LABELS[name],
			exact: true,
			count: (text) => countTokens(text, plain),
		};
	}
	loaded.set(name, tokenizer);
	return tokenizer;
}

/** {@link loadTokenizerSync}, for callers that would rather not block. */
export async function loadTokenizer(name: TokenizerName = "o200k"): Promise<Tokenizer> {
	return loadTokenizerSync(name);
}

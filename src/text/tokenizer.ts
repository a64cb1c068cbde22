/**
 * Token counters. `o200k` and `cl100k` are OpenAI's encodings, counted as
 * `gpt-tokenizer` counts them (./bpe.ts, from its ranks): exact for the models that use them, an
 * estimate for every other model family. `chars` is the usual rule of thumb
 * (four characters a token) for when no tokenizer fits. A scaled counter
 * (o200k times a family's factor) estimates the units of a model whose own
 * tokenizer is not published; `measure/units.ts` picks one per model. The
 * encodings are large tables, loaded on first use only, so commands that
 * never count tokens never pay for them.
 */
import { bpeCounter } from "./bpe.js";
import type { TokenizerName } from "./tokenizer-names.js";

export { isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from "./tokenizer-names.js";

/** Counts the tokens of a text. */
export interface Tokenizer {
	/** The unit its counts are in: an encoding (`o200k`), or a model family's estimate (`claude~`). */
	name: string;
	/** What the counts mean, for people (which encoding; estimate or not). */
	label: string;
	/** Exact for the models of this encoding; false for an estimate. */
	exact: boolean;
	count(text: string): number;
}

const LABELS: Record<TokenizerName, string> = {
	o200k:
		"o200k_base (exact for GPT-4o and later OpenAI models; an estimate for other model families)",
	cl100k: "cl100k_base (exact for GPT-4 and GPT-3.5; an estimate for other model families)",
	chars: "characters / 4 (a rough estimate for any model)",
};

const loaded = new Map<TokenizerName, Tokenizer>();

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
		const count = bpeCounter(name);
		tokenizer = {
			name,
			label: LABELS[name],
			exact: true,
			count: (text) => countInPieces(text, count),
		};
	}
	loaded.set(name, tokenizer);
	return tokenizer;
}

/**
 * A model family's estimate: `base`'s count times `factor`, rounded, for a
 * model whose own tokenizer is not published. Named `NAME~` (an estimate in
 * that family's units).
 */
export function scaledTokenizer(
	base: Tokenizer,
	family: string,
	factor: number,
	label: string,
): Tokenizer {
	if (factor === 1) return { name: `${family}~`, label, exact: false, count: base.count };
	return {
		name: `${family}~`,
		label,
		exact: false,
		count: (text) => Math.round(base.count(text) * factor),
	};
}

/** {@link loadTokenizerSync}, for callers that would rather not block. */
export async function loadTokenizer(name: TokenizerName = "o200k"): Promise<Tokenizer> {
	return loadTokenizerSync(name);
}

/** Texts up to this long are counted whole. */
const PIECE = 4096;

/**
 * `count` over `text` in pieces of at most {@link PIECE} characters. The
 * encoder's merge step is quadratic in the length of one pre-token, so a long
 * run of one character (a progress bar, padding, a hex dump) would take
 * minutes whole. A piece ends before a single space that follows a letter
 * or digit, where the encoder's pre-tokenizer splits too, so the sum equals
 * the whole count; only a run of more than {@link PIECE} characters without
 * such a break is cut inside, which can count a token or two more per cut.
 */
export function countInPieces(text: string, count: (piece: string) => number): number {
	if (text.length <= PIECE) return count(text);
	let total = 0;
	let start = 0;
	while (text.length - start > PIECE) {
		let end = start + PIECE;
		while (end > start + PIECE / 4 && !isBreak(text, end)) end--;
		if (end <= start + PIECE / 4) {
			end = start + PIECE;
			const c = text.charCodeAt(end);
			if (c >= 0xdc00 && c <= 0xdfff) end--; // never split a surrogate pair
		}
		total += count(text.slice(start, end));
		start = end;
	}
	return total + count(text.slice(start));
}

/** A single space at `i`, after a letter or digit and before a character that is not white space. */
function isBreak(text: string, i: number): boolean {
	return (
		text[i] === " " && /[\p{L}\p{N}]/u.test(text[i - 1] ?? "") && !/\s/.test(text[i + 1] ?? " ")
	);
}

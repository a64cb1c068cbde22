/**
 * What eval's calls cost, at replay's prices: an answer's usage priced rate
 * by rate (new input, cache writes, cache reads, output), and the estimate
 * made before any request is sent, an upper bound: every input token at the
 * highest input rate the model has (the cache write's, when it has one),
 * counted as replay counts a context, plus the whole `--max-tokens` of
 * output. A model with no price has a null cost, never a guess.
 */
import { type Price, type PriceTable, priceOf } from "../replay/prices.js";
import { contentOf } from "../text/content.js";
import type { Tokenizer } from "../text/tokenizer.js";
import type { ModelChoice, RequestContext } from "./settings.js";

/** An answer's tokens, as the provider bills them. */
export interface Usage {
	input: number;
	cacheRead: number;
	cacheWrite: number;
	output: number;
}

/** The price of `model` in `table`, undefined when it has none. */
export function modelPrice(table: PriceTable, model: ModelChoice): Price | undefined {
	return priceOf(table, model.model, model.provider);
}

/** The dollars `usage` costs at `price`. */
export function usageCost(price: Price, usage: Usage): number {
	const dollars =
		usage.input * price.input +
		usage.cacheWrite * (price.cacheWrite ?? price.input) +
		usage.cacheRead * (price.cacheRead ?? price.input) +
		usage.output * price.output;
	return dollars / 1_000_000;
}

/** The most a request of `inputTokens` with `maxTokens` of output can cost at `price`. */
export function requestBound(price: Price, inputTokens: number, maxTokens: number): number {
	const input = Math.max(price.input, price.cacheWrite ?? price.input);
	return (inputTokens * input + maxTokens * price.output) / 1_000_000;
}

/** A context's tokens as replay counts them: the system prompt and each message's text. */
export function countRequest(tokenizer: Tokenizer, context: RequestContext): number {
	let tokens = tokenizer.count(context.systemPrompt);
	for (const m of context.messages) tokens += tokenizer.count(contentOf(m.content).text);
	return tokens;
}

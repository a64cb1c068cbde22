/**
 * What eval's calls cost, at replay's prices (an override table, then the
 * bundled price database, at the run's date): an answer's usage priced rate
 * by rate (new input, cache writes, cache reads, output), and the estimate
 * made before any request is sent, an upper bound: every input token at the
 * highest input rate the model has (the cache write's, when it has one),
 * counted as replay counts a context, plus the whole `--max-tokens` of
 * output. A model with no price has a null cost, never a guess.
 */
import type { Prices } from "../replay/prices.js";
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

/** One model's price on one date: what a usage costs there. */
export interface ModelPrice {
	/** The dollars `usage` costs. */
	cost(usage: Usage): number;
}

/** The price of `model` on `date` (default: now), undefined when it has none. */
export function modelPrice(
	prices: Prices,
	model: ModelChoice,
	date: Date = new Date(),
): ModelPrice | undefined {
	const query = { provider: model.provider, model: model.model, date };
	if (!prices.knows(model.provider, model.model, date)) return undefined;
	return { cost: (usage) => prices.costOf({ ...query, usage }) ?? 0 };
}

/** The dollars `usage` costs at `price`. */
export function usageCost(price: ModelPrice, usage: Usage): number {
	return price.cost(usage);
}

/** The most a request of `inputTokens` with `maxTokens` of output can cost at `price`. */
export function requestBound(price: ModelPrice, inputTokens: number, maxTokens: number): number {
	const none = { input: 0, cacheRead: 0, cacheWrite: 0, output: maxTokens };
	return Math.max(
		price.cost({ ...none, input: inputTokens }),
		price.cost({ ...none, cacheWrite: inputTokens }),
	);
}

/** A context's tokens as replay counts them: the system prompt and each message's text. */
export function countRequest(tokenizer: Tokenizer, context: RequestContext): number {
	let tokens = tokenizer.count(context.systemPrompt);
	for (const m of context.messages) tokens += tokenizer.count(contentOf(m.content).text);
	return tokens;
}

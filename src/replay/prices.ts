/**
 * What a model call costs, in dollars: from a user's override table first
 * (`--prices FILE`, YAML, $ per million tokens, the first entry whose
 * `match` glob and `provider` fit wins), else from the maintained price
 * database `@pydantic/genai-prices` as the package bundles it (never its
 * auto-update: no network, the same figures on every run), at the price in
 * force on the call's date (dated and tiered prices included). One entry
 * point, {@link Prices.costOf}: provider, model, usage and date in, dollars
 * or undefined (a model neither knows) out. A bad table fails with every
 * problem located; an entry that a glob before it hides is a warning.
 */
import { calcPrice, findProvider, type ModelPrice, type Provider } from "@pydantic/genai-prices";
import { z } from "zod";
import type { Diagnostic } from "../errors.js";
import { readRegularText } from "../log/read-text.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import { globCovers, globMatches } from "./globs.js";
import { costByPlan, type PricePlan, pickerOf, planOf } from "./price-plan.js";

export { globMatches } from "./globs.js";

const rate = z.number().nonnegative();

const PriceSchema = z.strictObject({
	match: z.string().min(1),
	provider: z.string().min(1).optional(),
	input: rate,
	cacheWrite: rate.optional(),
	cacheRead: rate.optional(),
	output: rate,
});

const TableSchema = z.strictObject({
	date: z.string().optional(),
	sources: z.array(z.string()).optional(),
	models: z.array(PriceSchema),
});

/** One model's prices in an override table, $ per million tokens. */
export type Price = z.infer<typeof PriceSchema>;

/** A validated override table, and what it warns of (entries hidden by a glob before them). */
export interface PriceTable {
	file: string;
	date?: string;
	models: Price[];
	/** Where each entry's `match` is, in the order of `models`. */
	at: { line: number; column: number }[];
	warnings: Diagnostic[];
}

/**
 * A call's tokens as pi's usage counts them: `input` is the uncached input;
 * cache reads and writes apart; `output` includes reasoning.
 */
export interface TokenUsage {
	input: number;
	cacheRead: number;
	cacheWrite: number;
	output: number;
}

/** One call to price. */
export interface PriceQuery {
	/** As the log names it (`anthropic`, `openai`, `amazon-bedrock`, …); undefined when unknown. */
	provider: string | undefined;
	model: string;
	usage: TokenUsage;
	/** When the call was made: the price in force then applies (ms since the epoch, or ISO text). */
	date: number | string | Date;
}

/** Where the default prices come from, for messages and docs. */
export const PRICE_DATABASE = "@pydantic/genai-prices (bundled data)";

/** Parses and validates an override table's text; `file` names it in errors and warnings. */
export function parsePrices(text: string, file: string): PriceTable {
	const parsed = parseYaml(text, file, "bad_prices");
	const table = validateYaml(TableSchema, parsed, file, "bad_prices", "price table");
	const warnings: Diagnostic[] = [];
	table.models.forEach((entry, i) => {
		const hidden = table.models
			.map((later, j) => ({ later, j }))
			.filter(({ later, j }) => j > i && hides(entry, later));
		if (hidden.length === 0) return;
		const at = parsed.locate(["models", i, "match"]);
		const names = hidden
			.map(
				({ later, j }) =>
					`${JSON.stringify(later.match)} (line ${parsed.locate(["models", j, "match"]).line})`,
			)
			.join(", ");
		warnings.push({
			code: "shadowed_price",
			severity: "warning",
			message: `the entry ${JSON.stringify(entry.match)} matches every model of the later ${hidden.length === 1 ? "entry" : "entries"} ${names}, which never ${hidden.length === 1 ? "applies" : "apply"}`,
			file,
			...at,
		});
	});
	return {
		file,
		...(table.date === undefined ? {} : { date: table.date }),
		models: table.models,
		at: table.models.map((_, i) => parsed.locate(["models", i, "match"])),
		warnings,
	};
}

/** A warning at each entry of `table` that priced none of the calls (`priced`: the indices of those that did). */
export function unusedPrices(table: PriceTable, priced: Iterable<number>): Diagnostic[] {
	const used = new Set(priced);
	// An entry hidden by one before it is warned of already, as hidden.
	const hidden = (i: number) =>
		table.models.slice(0, i).some((first) => hides(first, table.models[i] as Price));
	return table.models.flatMap((entry, i) =>
		used.has(i) || hidden(i)
			? []
			: [
					{
						code: "unused_price" as const,
						severity: "warning" as const,
						message: `the entry ${JSON.stringify(entry.match)}${entry.provider === undefined ? "" : ` (provider ${JSON.stringify(entry.provider)})`} priced no call of these sessions`,
						file: table.file,
						...table.at[i],
					},
				],
	);
}

/** Whether `first` fits every call `later` fits: its glob covers the other's, its provider too. */
function hides(first: Price, later: Price): boolean {
	const provider =
		first.provider === undefined ||
		(later.provider !== undefined && first.provider === later.provider);
	return provider && globCovers(first.match, later.match);
}

/** Reads the override table at `file`. */
export function readPrices(file: string): PriceTable {
	return parsePrices(readRegularText(file, "cannot read the price table"), file);
}

/** The override entry for `model` (at `provider`), the first that fits; undefined for none. */
export function priceOf(
	table: PriceTable,
	model: string,
	provider: string | undefined,
): Price | undefined {
	return table.models[entryOf(table, model, provider)];
}

/** The index of {@link priceOf}'s entry; -1 for none. */
function entryOf(table: PriceTable, model: string, provider: string | undefined): number {
	return table.models.findIndex(
		(p) => globMatches(p.match, model) && (p.provider === undefined || p.provider === provider),
	);
}

/** What `usage` costs at an override entry: each kind of token at its rate (a missing cache rate: input's). */
export function costAt(price: Price, usage: TokenUsage): number {
	const dollars =
		usage.input * price.input +
		usage.cacheWrite * (price.cacheWrite ?? price.input) +
		usage.cacheRead * (price.cacheRead ?? price.input) +
		usage.output * price.output;
	return dollars / 1_000_000;
}

/**
 * A model as the database resolved it: the options that price it (its
 * provider narrowed to the one model found, or, where narrowing would not
 * find the same model, the provider's id as the log gave it).
 */
type Resolved =
	| {
			options: { provider: Provider } | { providerId?: string };
			/** The model's price in force at a date (its dated entries read once). */
			priceAt: (at: Date) => ModelPrice | undefined;
	  }
	| undefined;

/**
 * Prices calls: the override table first, then the bundled database. The
 * database's lookup of a model (its provider, then a match over that
 * provider's models, one pattern at a time) is done once per provider and
 * model: later calls are priced against that provider narrowed to the model
 * found, which gives the same price (the same model, its prices in force
 * on the call's date, tiers and all) without the search. Once calcPrice
 * has priced a call at one of the model's prices, later calls at that
 * price are computed by its plan (./price-plan.ts), the same arithmetic
 * without calcPrice's per-call work.
 */
export class Prices {
	/** Provider names the database does not know, resolved once: undefined, the model decides. */
	private readonly providers = new Map<string, string | undefined>();
	private readonly models = new Map<string, Resolved>();
	/** Each database price met, once calcPrice has priced a call at it: its plan, or undefined (calcPrice's alone). */
	private readonly plans = new Map<ModelPrice, PricePlan | undefined>();

	/** The indices of the override table's entries that priced a call. */
	readonly priced = new Set<number>();

	constructor(readonly overrides?: PriceTable) {}

	/** What the call cost in dollars; undefined when neither the table nor the database knows the model. */
	costOf(query: PriceQuery): number | undefined {
		const { model, provider, usage } = query;
		const at = this.overrides === undefined ? -1 : entryOf(this.overrides, model, provider);
		if (at >= 0) {
			this.priced.add(at);
			return costAt((this.overrides as PriceTable).models[at] as Price, usage);
		}
		const date = query.date instanceof Date ? query.date : new Date(query.date);
		if (Number.isNaN(date.getTime())) return undefined;
		const resolved = this.resolve(provider, model, date);
		if (resolved === undefined) return undefined;
		const input = usage.input + usage.cacheRead + usage.cacheWrite;
		const price = resolved.priceAt(date);
		const plan = price === undefined ? undefined : this.plans.get(price);
		if (plan !== undefined) {
			const cost = costByPlan(plan, input, usage.cacheRead, usage.cacheWrite, usage.output);
			if (cost !== undefined) return cost;
		}
		const result = calcPrice(
			{
				input_tokens: input,
				cache_read_tokens: usage.cacheRead,
				cache_write_tokens: usage.cacheWrite,
				output_tokens: usage.output,
			},
			model,
			{ ...resolved.options, timestamp: date },
		);
		if (result === null) return undefined;
		// A price calcPrice accepted (its validation depends on the price alone) is planned from now on.
		if (price !== undefined && result.model_price === price && !this.plans.has(price))
			this.plans.set(price, planOf(price));
		return result.total_price;
	}

	/**
	 * Whether a price for the model is known (at any usage), on `date`;
	 * `byName`: a price for it by its name (the database's, or a table entry
	 * without a glob), not one a glob gives whatever the model (`*`).
	 */
	knows(
		provider: string | undefined,
		model: string,
		date: number | string | Date,
		{ byName = false } = {},
	): boolean {
		const entry =
			this.overrides === undefined ? undefined : priceOf(this.overrides, model, provider);
		if (entry !== undefined && (!byName || !/[*?]/.test(entry.match))) return true;
		const at = date instanceof Date ? date : new Date(date);
		return !Number.isNaN(at.getTime()) && this.resolve(provider, model, at) !== undefined;
	}

	/** The database's provider and model for a call, looked up once per provider and model. */
	private resolve(provider: string | undefined, model: string, date: Date): Resolved {
		const key = `${provider ?? ""}\u0000${model}`;
		if (this.models.has(key)) return this.models.get(key);
		const providerId = provider === undefined ? undefined : this.providerId(provider);
		const options = providerId === undefined ? {} : { providerId };
		const zero = { input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 0 };
		const found = calcPrice(zero, model, { ...options, timestamp: date });
		let resolved: Resolved;
		if (found !== null) {
			const { fallback_model_providers: _, ...own } = found.provider;
			const narrowed = { provider: { ...own, models: [found.model] } };
			const again = calcPrice(zero, model, { ...narrowed, timestamp: date });
			resolved = {
				options: again?.model.id === found.model.id ? narrowed : options,
				priceAt: pickerOf(found.model),
			};
		}
		this.models.set(key, resolved);
		return resolved;
	}

	/** The database's id for a provider the log names; undefined when it has none (the model decides). */
	private providerId(provider: string): string | undefined {
		if (this.providers.has(provider)) return this.providers.get(provider);
		const found = findProvider({ providerId: provider })?.id;
		this.providers.set(provider, found);
		return found;
	}
}

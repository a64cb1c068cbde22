/**
 * A call's cost from a price the database resolved, without the database's
 * per-call work: `calcPrice` of `@pydantic/genai-prices` matches the model,
 * picks the price in force at the call's time, validates the price against
 * its lattice of usage units and walks that lattice for every call (most of
 * what replay spent pricing). Here a model's prices are read once into
 * plans, and a call is a few multiplications that give the very same
 * figure: the same terms, summed in the same order, as calcPrice sums them
 * for a usage of input (cache included), cache reads, cache writes and
 * output tokens.
 *
 * What that usage reaches of the lattice: the uncached input (the input
 * less the reads and writes where those are priced apart, else at input's
 * rate), the reads, the writes, the output, and one request; every other
 * unit the database prices (audio, images, 1-hour cache writes, web
 * searches, …) counts zero for it. A price of another shape (a key the
 * database does not know, a malformed rate, a constraint other than a start
 * date or a time of day) has no plan: calcPrice prices it.
 */
import type { ModelInfo, ModelPrice } from "@pydantic/genai-prices";

/** Which of the usage's figures a price multiplies: uncached input, reads, writes, output, one request. */
const UNCACHED = 0;
const CACHE_READ = 1;
const CACHE_WRITE = 2;
const OUTPUT = 3;
const REQUESTS = 4;
type Quantity = 0 | 1 | 2 | 3 | 4;

/** A tiered rate: the base, and the tiers by their start (in input tokens), sorted. */
interface Tiered {
	base: number;
	tiers: { start: number; price: number }[];
}

/** One priced unit: its rate (flat, or tiered by the call's input), what it multiplies, per how many. */
interface Term {
	rate: number | Tiered;
	quantity: Quantity;
	per: number;
	/** Where calcPrice adds it: input, output, or neither (a request). */
	side: 0 | 1 | 2;
}

/** A model price read for arithmetic: its terms in the price's own key order. */
export interface PricePlan {
	terms: Term[];
	cacheReadApart: boolean;
	cacheWriteApart: boolean;
}

/** The price keys calcPrice reads for this usage: unit, side, per how many. */
const READ: Record<string, [Quantity, 0 | 1 | 2, number]> = {
	input_mtok: [UNCACHED, 0, 1e6],
	cache_read_mtok: [CACHE_READ, 0, 1e6],
	cache_write_mtok: [CACHE_WRITE, 0, 1e6],
	output_mtok: [OUTPUT, 1, 1e6],
	requests_kcount: [REQUESTS, 2, 1e3],
};

/**
 * The database's other price keys (its unit registry, version 0.1.8): none
 * is this usage's unit nor an ancestor of one, so each counts zero.
 */
export const ZERO_KEYS: ReadonlySet<string> = new Set(
	`audio_hours cache_audio_read_mtok cache_audio_write_1h_mtok cache_audio_write_5m_mtok
	cache_audio_write_mtok cache_image_read_mtok cache_image_write_1h_mtok cache_image_write_5m_mtok
	cache_image_write_mtok cache_text_read_mtok cache_text_write_1h_mtok cache_text_write_5m_mtok
	cache_text_write_mtok cache_video_read_mtok cache_video_write_1h_mtok cache_video_write_5m_mtok
	cache_video_write_mtok cache_write_1h_mtok cache_write_5m_mtok code_executions_kcount
	input_annotated_document_kpages input_audio_hours input_audio_mtok input_audio_tool_mtok
	input_mchars input_document_kpages input_image_mtok input_image_tool_mtok input_gpixels
	input_text_messages_kcount input_text_mtok input_text_tool_mtok input_tool_mtok input_video_mtok
	input_video_tool_mtok output_audio_citation_mtok output_audio_reasoning_mtok output_audio_hours
	output_audio_mtok output_citation_mtok output_image_citation_mtok output_image_reasoning_mtok
	output_image_mtok output_reasoning_mtok output_text_citation_mtok output_text_reasoning_mtok
	output_text_mtok output_video_citation_mtok output_video_reasoning_mtok output_video_mtok
	rerank_searches_kcount social_searches_kcount storage_searches_kcount web_searches_kcount`.split(
		/\s+/,
	),
);

/** The keys a plan reads, for tests. */
export const READ_KEYS: readonly string[] = Object.keys(READ);

/** A plan of `price`, or undefined when it has a key or rate of a shape calcPrice alone prices. */
export function planOf(price: ModelPrice): PricePlan | undefined {
	const plan: PricePlan = { terms: [], cacheReadApart: false, cacheWriteApart: false };
	for (const [key, value] of Object.entries(price)) {
		if (value === undefined) continue;
		const rate = rateOf(value);
		if (rate === undefined) return undefined;
		const read = READ[key];
		if (read === undefined) {
			if (!ZERO_KEYS.has(key)) return undefined;
			// A zero count costs zero, flat or tiered, and adds +0: the sums are unchanged.
			continue;
		}
		const [quantity, side, per] = read;
		plan.terms.push({ rate, quantity, per, side });
		if (quantity === CACHE_READ) plan.cacheReadApart = true;
		if (quantity === CACHE_WRITE) plan.cacheWriteApart = true;
	}
	return plan;
}

/** A rate as calcPrice accepts it (a finite non-negative number, or a base with tiers), tiers sorted. */
function rateOf(value: unknown): number | Tiered | undefined {
	if (isRate(value)) return value;
	if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	const { base, tiers } = value as { base?: unknown; tiers?: unknown };
	if (!isRate(base) || !Array.isArray(tiers)) return undefined;
	const read: { start: number; price: number }[] = [];
	for (const tier of tiers as unknown[]) {
		if (typeof tier !== "object" || tier === null || Array.isArray(tier)) return undefined;
		const { start, price } = tier as { start?: unknown; price?: unknown };
		if (typeof start !== "number" || !Number.isSafeInteger(start) || start < 0 || !isRate(price))
			return undefined;
		read.push({ start, price });
	}
	return { base, tiers: read.sort((a, b) => a.start - b.start) };
}

function isRate(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/**
 * What a call costs at `plan`, in dollars, as calcPrice computes it, from
 * its input (cache included), reads, writes and output; undefined when the
 * usage is one calcPrice refuses or adjusts (a count not finite or
 * negative, reads and writes over the input).
 */
export function costByPlan(
	plan: PricePlan,
	input: number,
	cacheRead: number,
	cacheWrite: number,
	output: number,
): number | undefined {
	if (!(isRate(input) && isRate(cacheRead) && isRate(cacheWrite) && isRate(output)))
		return undefined;
	let apart = 0;
	if (plan.cacheReadApart) apart += cacheRead;
	if (plan.cacheWriteApart) apart += cacheWrite;
	const uncached = input - apart;
	if (uncached < 0) return undefined;
	// Summed per side in the price's key order, then input + output + other: calcPrice's order.
	let inputSide = 0;
	let outputSide = 0;
	let otherSide = 0;
	for (const { rate, quantity, per, side } of plan.terms) {
		const count =
			quantity === UNCACHED
				? uncached
				: quantity === CACHE_READ
					? cacheRead
					: quantity === CACHE_WRITE
						? cacheWrite
						: quantity === OUTPUT
							? output
							: 1;
		const cost =
			typeof rate === "number" ? (rate * count) / per : (tierCost(rate, count, input) * 1e6) / per;
		if (side === 0) inputSide += cost;
		else if (side === 1) outputSide += cost;
		else otherSide += cost;
	}
	return inputSide + outputSide + otherSide;
}

/** A tiered rate's cost per million of `count` units, its tier chosen by the call's whole input. */
function tierCost(rate: Tiered, count: number, input: number): number {
	if (count <= 0) return 0;
	let price = rate.base;
	for (const tier of rate.tiers) if (input > tier.start) price = tier.price;
	return (price * count) / 1e6;
}

/**
 * The price of `model` in force at `at`, as calcPrice picks it (the last
 * entry whose constraint holds, else the first); undefined for a constraint
 * of a kind it would not know.
 */
export function priceAt(model: ModelInfo, at: Date): ModelPrice | undefined {
	return pickerOf(model)(at);
}

/** What a dated entry's constraint says of a time: holds, does not, or is of no kind calcPrice knows. */
type Check = (ms: number, at: Date) => boolean | undefined;

/** {@link priceAt} for one model, its constraints read once (start dates parsed, times of day in seconds). */
export function pickerOf(model: ModelInfo): (at: Date) => ModelPrice | undefined {
	const { prices } = model;
	if (!Array.isArray(prices)) return () => prices;
	const entries = prices.map(({ constraint, prices: price }): [Check, ModelPrice] => {
		if (constraint === undefined) return [() => true, price];
		if (constraint.type === "start_date") {
			const start = Date.parse(constraint.start_date);
			return [(ms) => ms >= start, price];
		}
		if (constraint.type !== "time_of_date") return [() => undefined, price];
		const start = secondOfDay(constraint.start_time);
		const end = secondOfDay(constraint.end_time);
		if (start === undefined || end === undefined) return [() => undefined, price];
		return [
			(_, at) => {
				const now =
					at.getUTCHours() * 3600 +
					at.getUTCMinutes() * 60 +
					at.getUTCSeconds() +
					at.getUTCMilliseconds() / 1e3;
				return end < start ? now >= start || now < end : now >= start && now < end;
			},
			price,
		];
	});
	return (at) => {
		const ms = at.getTime();
		for (let i = entries.length - 1; i >= 0; i--) {
			const [check, price] = entries[i] as [Check, ModelPrice];
			const holds = check(ms, at);
			if (holds === undefined) return undefined;
			if (holds) return price;
		}
		return prices[0]?.prices;
	};
}

/** A time of day with its offset (`HH:MM:SS[.fff](Z|±HH:MM)`) as seconds after midnight UTC. */
function secondOfDay(text: string): number | undefined {
	const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
	if (m === null) return undefined;
	const [, h, min, s, fraction = "", zone, sign, oh = "00", om = "00"] = m;
	if (Number(h) > 23 || Number(min) > 59 || Number(s) > 59 || oh > "23" || om > "59")
		return undefined;
	const local = Number(h) * 3600 + Number(min) * 60 + Number(s) + +`0.${fraction}`;
	const offset = (Number(oh) * 60 + Number(om)) * 60;
	const shift = zone === "Z" ? 0 : sign === "+" ? offset : -offset;
	return (local - shift + 86400) % 86400;
}

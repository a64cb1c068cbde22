/**
 * Price plans against the database's own arithmetic: for every model the
 * bundled `@pydantic/genai-prices` data has, random usages at random dates
 * (near each dated price's start too) cost by the plan exactly what
 * `calcPrice` says, the price picked for the date being the one calcPrice
 * picks. The unit registry and the provider list are the package's own,
 * read from its module (neither is exported). Reach: tiered prices on both
 * sides of a tier, dated prices before and after a start, time-of-day
 * prices, requests and zero-counted units all met.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { calcPrice, type ModelInfo, type ModelPrice, type Provider } from "@pydantic/genai-prices";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { costByPlan, planOf, priceAt, READ_KEYS, ZERO_KEYS } from "../../src/replay/price-plan.js";
import { Prices } from "../../src/replay/prices.js";
import { tempDir } from "../support/temp.js";

type Units = Record<
	string,
	{ dimensions: Record<string, string>; per: number; price_key?: string }
>;

let providers: Provider[] = [];
let units: Units = {};

/** The package's module with its data and unit registry exported too. */
beforeAll(async () => {
	const require = createRequire(import.meta.url);
	const main = require.resolve("@pydantic/genai-prices");
	const source = readFileSync(join(main, "..", "index.js"), "utf8");
	const data = /^const (\w+) = \[/.exec(source)?.[1];
	const registry = /\nconst \w+ = new \w+\((\w+)\);\n/.exec(source)?.[1];
	expect(data).toBeDefined();
	expect(registry).toBeDefined();
	const file = join(tempDir(), "genai-prices.mjs");
	writeFileSync(file, `${source}\nexport { ${data} as providers, ${registry} as units };\n`);
	({ providers, units } = await import(pathToFileURL(file).href));
	expect(providers.length).toBeGreaterThan(20);
});

const OURS = ["input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens"];

describe("the unit registry", () => {
	it("has exactly the keys a plan reads or counts zero, and no zero key reaches this usage", () => {
		const keys = Object.entries(units).map(([usage, unit]) => unit.price_key ?? usage);
		expect(new Set(keys)).toEqual(new Set([...READ_KEYS, ...ZERO_KEYS]));
		const within = (a: string, b: string) =>
			Object.entries(units[a]?.dimensions ?? {}).every(([k, v]) => units[b]?.dimensions[k] === v);
		for (const [usage, unit] of Object.entries(units)) {
			if (!ZERO_KEYS.has(unit.price_key ?? usage)) continue;
			// Not one of this usage's units, nor an ancestor of one: its count is zero.
			for (const ours of OURS) expect(within(usage, ours), `${usage} over ${ours}`).toBe(false);
		}
	});
});

const DAY = 86_400_000;
const PROBE = "the-model-under-test";
const count = (max: number) =>
	fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max }));
const usageArb = fc.record({
	input: count(300_000),
	cacheRead: count(400_000),
	cacheWrite: count(80_000),
	output: count(60_000),
});

/** Dates from 2023 to 2027, and near each start date the model's prices have. */
function datesOf(model: ModelInfo): fc.Arbitrary<Date> {
	const any = fc.date({
		min: new Date("2023-01-01"),
		max: new Date("2027-12-31"),
		noInvalidDate: true,
	});
	const starts = (Array.isArray(model.prices) ? model.prices : []).flatMap((p) =>
		p.constraint?.type === "start_date" ? [Date.parse(p.constraint.start_date)] : [],
	);
	if (starts.length === 0) return any;
	const near = fc
		.tuple(fc.constantFrom(...starts), fc.integer({ min: -3 * DAY, max: 3 * DAY }))
		.map(([start, offset]) => new Date(start + offset));
	return fc.oneof(any, near);
}

/** The starts of every tier of `prices`. */
function tierStarts(prices: ModelPrice[]): number[] {
	return prices.flatMap((price) =>
		Object.values(price).flatMap((v) => (typeof v === "object" ? v.tiers.map((t) => t.start) : [])),
	);
}

describe("a plan's cost", () => {
	it("equals calcPrice's for every model, at random usages and dates", () => {
		const reach = {
			calls: 0,
			tierAbove: 0,
			tierBase: 0,
			beforeStart: 0,
			afterStart: 0,
		};
		const met = { timeOfDay: 0, requests: 0, zeroKeys: 0, tieredModels: 0 };
		for (const provider of providers) {
			const { fallback_model_providers: _, ...own } = provider;
			for (const model of provider.models) {
				// The model alone, matched by a name of the test's own: its prices, not its matching, are tested.
				const narrowed = { ...own, models: [{ ...model, match: { equals: PROBE } }] };
				const prices = Array.isArray(model.prices) ? model.prices : [{ prices: model.prices }];
				if (prices.some((p) => p.constraint?.type === "time_of_date")) met.timeOfDay++;
				const keys = prices.flatMap((p) => Object.keys(p.prices));
				if (keys.includes("requests_kcount")) met.requests++;
				if (keys.some((k) => ZERO_KEYS.has(k))) met.zeroKeys++;
				const tiered = prices.some((p) =>
					Object.values(p.prices).some((v) => typeof v === "object"),
				);
				if (tiered) met.tieredModels++;
				const samples = fc.sample(fc.tuple(usageArb, datesOf(model)), 6);
				// A call's whole input at each tier's start and one over: the tier's edge.
				for (const start of tierStarts(prices.map((p) => p.prices))) {
					for (const whole of [start, start + 1]) {
						const cacheRead = Math.floor(whole / 3);
						const at = (samples[0] as (typeof samples)[number])[1];
						samples.push([
							{ input: whole - cacheRead, cacheRead, cacheWrite: 0, output: 1_000 },
							at,
						]);
					}
				}
				for (const [usage, at] of samples) {
					const input = usage.input + usage.cacheRead + usage.cacheWrite;
					const theirs = calcPrice(
						{
							input_tokens: input,
							cache_read_tokens: usage.cacheRead,
							cache_write_tokens: usage.cacheWrite,
							output_tokens: usage.output,
						},
						PROBE,
						{ provider: narrowed, timestamp: at },
					);
					expect(theirs).not.toBeNull();
					if (theirs === null) continue;
					reach.calls++;
					const price = priceAt(model, at);
					const where = `${provider.id}/${model.id} at ${at.toISOString()} ${JSON.stringify(usage)}`;
					expect(price, where).toBe(theirs.model_price);
					const plan = planOf(theirs.model_price);
					expect(plan, where).toBeDefined();
					const ours = costByPlan(
						plan as NonNullable<typeof plan>,
						input,
						usage.cacheRead,
						usage.cacheWrite,
						usage.output,
					);
					expect(ours, where).toBe(theirs.total_price);
					const first = prices[0]?.prices;
					if (prices.some((p) => p.constraint?.type === "start_date")) {
						if (price === first) reach.beforeStart++;
						else reach.afterStart++;
					}
					if (tiered) {
						const tiers = tierStarts([price ?? {}]);
						if (tiers.some((start) => input > start)) reach.tierAbove++;
						else reach.tierBase++;
					}
				}
			}
		}
		for (const [name, n] of Object.entries({ ...reach, ...met }))
			expect(n, name).toBeGreaterThan(0);
		expect(reach.tierAbove).toBeGreaterThan(20);
		expect(reach.afterStart).toBeGreaterThan(5);
	});

	it("leaves to calcPrice what it would refuse: a negative count, an unknown key", () => {
		const plan = planOf({ input_mtok: 3, cache_read_mtok: 0.3, output_mtok: 15 });
		expect(plan).toBeDefined();
		const planned = plan as NonNullable<typeof plan>;
		expect(costByPlan(planned, 100, 10, 0, 5)).toBe(
			(3 * 90) / 1e6 + (0.3 * 10) / 1e6 + (15 * 5) / 1e6,
		);
		expect(costByPlan(planned, 100, 10, 0, -1)).toBeUndefined();
		expect(costByPlan(planned, 5, 10, 0, 5)).toBeUndefined();
		expect(planOf({ input_mtok: 1, made_up_mtok: 2 })).toBeUndefined();
		expect(planOf({ input_mtok: Number.NaN })).toBeUndefined();
		expect(planOf({ input_mtok: { base: 1, tiers: [{ start: 1.5, price: 2 }] } })).toBeUndefined();
	});
});

describe("Prices", () => {
	it("prices repeated calls of one model as calcPrice does, across a dated price's start", () => {
		const dated = providers
			.flatMap((p) => p.models.map((m) => ({ provider: p.id, model: m })))
			.find(
				({ provider, model }) =>
					Array.isArray(model.prices) &&
					model.prices.some((p) => p.constraint?.type === "start_date") &&
					calcPrice({ input_tokens: 1 }, model.id, { providerId: provider })?.model.id === model.id,
			);
		expect(dated).toBeDefined();
		const { provider, model } = dated as NonNullable<typeof dated>;
		const prices = new Prices();
		const samples = fc.sample(fc.tuple(usageArb, datesOf(model)), 200);
		const costs = new Set<number | undefined>();
		for (const [usage, at] of samples) {
			const found = calcPrice(
				{
					input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
					cache_read_tokens: usage.cacheRead,
					cache_write_tokens: usage.cacheWrite,
					output_tokens: usage.output,
				},
				model.id,
				{ providerId: provider, timestamp: at },
			);
			const ours = prices.costOf({ provider, model: model.id, usage, date: at });
			expect(ours, `${model.id} at ${at.toISOString()}`).toBe(found?.total_price);
			costs.add(ours);
		}
		expect(costs.size).toBeGreaterThan(10);
	});
});

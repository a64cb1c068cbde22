/**
 * The price database as the command line loads it (scripts/lazy-prices.js):
 * `dist/cli/genai-prices.cjs` finds every provider the package finds, and
 * prices every model of every provider as the package does, at dates
 * before, between and after the database's dated prices; and a process
 * that prices one provider's call reads that provider's models alone.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type * as GenaiPrices from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/serve.js";

const LAZY = join(ROOT, "dist/cli/genai-prices.cjs");
const require = createRequire(import.meta.url);
const lazy = require(LAZY) as typeof GenaiPrices;
const real = require("@pydantic/genai-prices") as typeof GenaiPrices;
/** The build's script, untyped JavaScript: the package's own data as it parses it. */
const SCRIPT: string = "../../scripts/lazy-prices.js";
const { packagePrices } = (await import(SCRIPT)) as {
	packagePrices: () => { providers: { id: string; models: { id: string }[] }[] };
};
const { providers } = packagePrices();

const DATES = ["2023-01-01", "2025-03-15T12:00:00Z", "2025-11-30T23:30:00Z", "2027-01-01"].map(
	(d) => new Date(d),
);
const USAGES = [
	{
		input_tokens: 1_234_567,
		output_tokens: 8_901,
		cache_read_tokens: 400_000,
		cache_write_tokens: 30_000,
	},
	{ input_tokens: 300_000, output_tokens: 1 },
	{ input_tokens: 0, output_tokens: 0 },
];

/** calcPrice's result, or its error's message. */
function priced(
	db: typeof GenaiPrices,
	...args: Parameters<typeof GenaiPrices.calcPrice>
): unknown {
	try {
		return db.calcPrice(...args);
	} catch (error) {
		return { threw: (error as Error).message };
	}
}

describe("the command line's price database", () => {
	it("has the package's providers and models", () => {
		expect(providers.length).toBeGreaterThan(20);
		expect(providers.reduce((n, p) => n + p.models.length, 0)).toBeGreaterThan(1000);
		for (const { id } of providers) {
			const mine = lazy.findProvider({ providerId: id });
			const theirs = real.findProvider({ providerId: id });
			expect(mine?.models.length, id).toBe(theirs?.models.length);
			expect(isDeepStrictEqual(mine, theirs), id).toBe(true);
		}
	});

	it("prices every model of every provider as the package does", () => {
		let compared = 0;
		let costed = 0;
		for (const provider of providers) {
			for (const model of provider.models) {
				for (const timestamp of DATES) {
					for (const usage of USAGES) {
						const options = { providerId: provider.id, timestamp };
						const mine = priced(lazy, usage, model.id, options);
						const theirs = priced(real, usage, model.id, options);
						if (!isDeepStrictEqual(mine, theirs)) {
							expect({ provider: provider.id, model: model.id, timestamp, mine }).toEqual({
								provider: provider.id,
								model: model.id,
								timestamp,
								mine: theirs,
							});
						}
						compared++;
						if (typeof (theirs as { total_price?: unknown })?.total_price === "number") costed++;
					}
				}
			}
		}
		// Most calls are priced, not refused: the comparison is of figures.
		expect(costed).toBeGreaterThan(compared / 2);
		// Found by the model's name alone, too (no provider given).
		for (const model of [
			"claude-sonnet-4-5-20250929",
			"gpt-5.2-codex",
			"gemini-2.5-pro",
			"no-such-model",
		]) {
			const usage = USAGES[0] as (typeof USAGES)[0];
			const timestamp = DATES[2] as Date;
			expect(priced(lazy, usage, model, { timestamp })).toEqual(
				priced(real, usage, model, { timestamp }),
			);
		}
	});

	it("reads the models of the provider it prices, and no other's", () => {
		const script = `
			const db = require(${JSON.stringify(LAZY)});
			const cost = db.calcPrice({ input_tokens: 1000, output_tokens: 10 }, "claude-sonnet-4-5", { providerId: "anthropic" });
			const read = ${JSON.stringify(providers.map((p) => p.id))}.filter(
				(id) => Object.getOwnPropertyDescriptor(db.findProvider({ providerId: id }), "models").get === undefined,
			);
			console.log(JSON.stringify({ cost: cost.total_price, read }));
		`;
		const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
		expect(run.stderr).toBe("");
		const { cost, read } = JSON.parse(run.stdout) as { cost: number; read: string[] };
		expect(cost).toBeGreaterThan(0);
		expect(read).toEqual(["anthropic"]);
	});
});

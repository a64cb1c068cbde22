/**
 * Prices per model, in dollars per million tokens, from a YAML table: the
 * first entry whose `match` (a model id, exactly or as a glob with `*` and
 * `?`) and `provider` (when given) fit a call wins. The package ships a
 * dated default table (`prices.yaml` at its root); `--prices FILE` replaces
 * it. A bad file fails with every problem located (file, line, column).
 */
import { join } from "node:path";
import { z } from "zod";
import { readRegularText } from "../log/read-text.js";
import { PACKAGE_ROOT } from "../templates/load.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";

/** The default table shipped with the package. */
export const DEFAULT_PRICES_FILE = join(PACKAGE_ROOT, "prices.yaml");

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

/** One model's prices, $ per million tokens. */
export type Price = z.infer<typeof PriceSchema>;

/** A validated price table. */
export interface PriceTable {
	file: string;
	date?: string;
	models: Price[];
}

/** Parses and validates a price table's text; `file` names it in errors. */
export function parsePrices(text: string, file: string): PriceTable {
	const parsed = parseYaml(text, file, "bad_prices");
	const table = validateYaml(TableSchema, parsed, file, "bad_prices", "price table");
	return { file, ...(table.date === undefined ? {} : { date: table.date }), models: table.models };
}

/** Reads the price table at `file` (default: the shipped one). */
export function readPrices(file: string = DEFAULT_PRICES_FILE): PriceTable {
	return parsePrices(readRegularText(file, "cannot read the price table"), file);
}

/** The price of `model` (at `provider`), the first entry that fits; undefined for an unknown model. */
export function priceOf(
	table: PriceTable,
	model: string,
	provider: string | undefined,
): Price | undefined {
	return table.models.find(
		(p) => globMatches(p.match, model) && (p.provider === undefined || p.provider === provider),
	);
}

const globs = new Map<string, RegExp>();

/** Whether `id` matches `pattern`: `*` any run of characters, `?` one; case is ignored. */
export function globMatches(pattern: string, id: string): boolean {
	let re = globs.get(pattern);
	if (re === undefined) {
		const body = [...pattern]
			.map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
			.join("");
		re = new RegExp(`^${body}$`, "is");
		globs.set(pattern, re);
	}
	return re.test(id);
}

/**
 * What a call costs at `price`: new tokens at the cache-write rate (a
 * provider that caches writes the prefix it has not seen; the input rate
 * when the table gives no write rate), cached ones at the cache-read rate
 * (else input), output at the output rate.
 */
export function costOf(
	price: Price,
	tokens: { cachedTokens: number; newTokens: number; outputTokens: number },
): number {
	const dollars =
		tokens.newTokens * (price.cacheWrite ?? price.input) +
		tokens.cachedTokens * (price.cacheRead ?? price.input) +
		tokens.outputTokens * price.output;
	return dollars / 1_000_000;
}

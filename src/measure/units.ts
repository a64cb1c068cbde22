/**
 * Tokens in each model's own units. A table maps model ids (globs) to a
 * family: either an encoding that is the family's own tokenizer (OpenAI's
 * o200k and cl100k, exact), or an estimate, o200k tokens times a factor
 * fitted on the usage the providers recorded (`replay --calibrate` fits
 * one; the package ships `tokenizers.json`, fitted on real sessions, with
 * its error and what it was fitted on). `--tokenizer auto` reads the
 * shipped table, `--tokenizer FILE` another; a fixed encoding (`o200k`,
 * `cl100k`, `chars`) counts every model alike. Workbench only: nothing on
 * the rendering path loads a tokenizer.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { readRegularText } from "../log/read-text.js";
import { PACKAGE_ROOT } from "../templates/load.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import { globMatches } from "../text/glob.js";
import { escapeControl } from "../text/terminal.js";
import {
	isTokenizerName,
	loadTokenizerSync,
	scaledTokenizer,
	type Tokenizer,
	type TokenizerName,
} from "../text/tokenizer.js";

/** The table shipped with the package, read by `--tokenizer auto`. */
export const DEFAULT_UNITS_FILE = join(PACKAGE_ROOT, "tokenizers.json");

const FitSchema = z.strictObject({
	/** Pairs of consecutive calls whose growths were compared. */
	pairs: z.number().int().nonnegative(),
	/** Median of recorded growth / o200k growth: what the factor was fitted to. */
	ratio: z.number().positive().nullable(),
	/** The middle half (25th, 75th percentile) of recorded / estimated growth, with the factor. */
	spread: z.tuple([z.number(), z.number()]).nullable(),
	/** The sessions the pairs came from, by file name, and how many each gave. */
	sessions: z.array(z.strictObject({ file: z.string(), pairs: z.number().int().nonnegative() })),
});

/** A factor beyond any tokenizer's: the table is wrong (and counts times it would not be finite). */
const MAX_FACTOR = 100;

const FamilySchema = z.strictObject({
	family: z.string().min(1),
	/** Model ids of the family, exactly or as globs (`*`, `?`; case ignored). The first family that matches wins. */
	match: z.array(z.string().min(1)).min(1),
	encoding: z.enum(["o200k", "cl100k"]),
	/** Tokens of the family per token of `encoding`; absent: the encoding is the family's own. */
	factor: z
		.number()
		.positive()
		.max(
			MAX_FACTOR,
			`a factor is the family's tokens per token of the encoding: at most ${MAX_FACTOR}`,
		)
		.optional(),
	fit: FitSchema.optional(),
});

const TableSchema = z.strictObject({
	about: z.string().optional(),
	date: z.string().optional(),
	families: z.array(FamilySchema),
});

/** One family of the table. */
export type UnitFamily = z.infer<typeof FamilySchema>;
/** The fit a family's factor came from. */
export type FamilyFit = z.infer<typeof FitSchema>;
/** A validated table, and the file it came from. */
export type UnitTable = z.infer<typeof TableSchema> & { file: string };

/**
 * How tokens are counted: one encoding for every model, or a table's family
 * per model (both can be sent to a worker), or a tokenizer at hand.
 */
export type UnitsSpec = { name: TokenizerName } | { table: UnitTable } | { tokenizer: Tokenizer };

/** Parses and validates a units table's text (JSON or YAML); `file` names it in errors. */
export function parseUnits(text: string, file: string): UnitTable {
	const parsed = parseYaml(text, file, "bad_units");
	return { ...validateYaml(TableSchema, parsed, file, "bad_units", "tokenizer table"), file };
}

/**
 * Reads the units table at `file` (default: the shipped one). The shipped
 * table is JSON the package's tests check: read as JSON, which is many times
 * faster than the YAML reader that locates every problem of a user's table
 * (it still reads the shipped one, should that ever fail to validate).
 */
export function readUnits(file: string = DEFAULT_UNITS_FILE): UnitTable {
	const text = readRegularText(file, "cannot read the tokenizer table");
	if (file === DEFAULT_UNITS_FILE) {
		const shipped = TableSchema.safeParse(parseJson(text));
		if (shipped.success) return { ...shipped.data, file };
	}
	return parseUnits(text, file);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * `--tokenizer`'s value as a spec: `auto` (or none) the shipped table, an
 * encoding's name that encoding, anything else a table file. Undefined when
 * it is neither a name nor an existing file (a usage error for the caller).
 */
export function unitsSpecOf(value: string | undefined, resolvePath: (p: string) => string) {
	if (value === undefined || value === "auto") return { table: readUnits() };
	if (isTokenizerName(value)) return { name: value };
	const path = resolvePath(value);
	return existsSync(path) ? { table: readUnits(path) } : undefined;
}

/** How a list of units is named in a figure: `o200k tokens`, `claude~ tokens`, `tokens (claude~, o200k)`. */
export function unitsLabel(units: readonly string[]): string {
	if (units.length === 0) return "tokens";
	if (units.length === 1) return `${escapeControl(units[0] as string)} tokens`;
	// A sum over models of several units: each model's tokens counted in its own.
	return `tokens, each model's in its units (${units.map(escapeControl).join(", ")})`;
}

/** What `--tokenizer` accepts, for usage texts. */
export const UNITS_CHOICES = "auto (default), o200k, cl100k, chars or a table FILE";

/** Tokenizers per model, from a spec; each made once. */
export class Units {
	private readonly byFamily = new Map<string, Tokenizer>();

	constructor(readonly spec: UnitsSpec) {}

	/** The family `model` belongs to under this spec's table (none for a fixed encoding). */
	/** `units` as they are, a tokenizer as the units that count every model with it. */
	static of(units: Units | Tokenizer): Units {
		return units instanceof Units ? units : new Units({ tokenizer: units });
	}

	familyOf(model: string | null | undefined): UnitFamily | undefined {
		if (!("table" in this.spec) || model === null || model === undefined) return undefined;
		return this.spec.table.families.find((f) => f.match.some((m) => globMatches(m, model)));
	}

	/** The tokenizer that counts in `model`'s units (o200k, labelled an estimate, for a model no family holds). */
	forModel(model: string | null | undefined): Tokenizer {
		if ("tokenizer" in this.spec) return this.spec.tokenizer;
		if ("name" in this.spec) return loadTokenizerSync(this.spec.name);
		const family = this.familyOf(model);
		const key = family?.family ?? "";
		let tokenizer = this.byFamily.get(key);
		if (tokenizer === undefined) {
			tokenizer = family === undefined ? unknownModel() : familyTokenizer(family);
			this.byFamily.set(key, tokenizer);
		}
		return tokenizer;
	}
}

function unknownModel(): Tokenizer {
	return {
		...loadTokenizerSync("o200k"),
		label: "o200k_base (no tokenizer or calibration for this model: an estimate)",
		exact: false,
	};
}

function familyTokenizer(family: UnitFamily): Tokenizer {
	const base = loadTokenizerSync(family.encoding);
	if (family.factor === undefined) {
		return {
			...base,
			label: `${base.label.replace(/ \(.*$/, "")} (${family.family}'s own, exact)`,
		};
	}
	const fit = family.fit;
	const spread =
		fit?.spread === null || fit?.spread === undefined
			? ""
			: `, half of the recorded growths within ${fit.spread[0].toFixed(2)}–${fit.spread[1].toFixed(2)}× the estimate`;
	const over =
		fit === undefined
			? " (not fitted: no recorded usage of this family yet)"
			: ` (fitted on ${fit.pairs} pairs of recorded usage${spread})`;
	const label = `${family.family} tokens, estimated: ${family.encoding} × ${family.factor}${over}`;
	return scaledTokenizer(base, family.family, family.factor, label);
}

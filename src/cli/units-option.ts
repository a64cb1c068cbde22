/**
 * `--tokenizer`, shared by inspect, diff, replay and the preview: `auto`
 * (the default) counts each model in its own units from the shipped table,
 * `o200k`, `cl100k` or `chars` every model alike, a FILE with that table
 * (`replay --calibrate` writes one).
 */
import { resolve } from "node:path";
import { type UnitsSpec, unitsSpecOf } from "../measure/units.js";
import type { Io } from "./io.js";
import { usageError } from "./usage.js";

/** The help line of `--tokenizer`. */
export const TOKENIZER_HELP = `  --tokenizer T            auto (default: each model's own tokenizer, else its family's
                           calibrated estimate), o200k, cl100k, chars, or a table FILE
                           written by replay --calibrate`;

/** `--tokenizer`'s value as a units spec; a usage error for a name that is none and no file. */
export function unitsOption(value: string | undefined, io: Io, usage: string): UnitsSpec {
	const spec = unitsSpecOf(value, (p) => resolve(io.cwd, p));
	if (spec === undefined)
		throw usageError(
			`--tokenizer must be auto, o200k, cl100k, chars or a table file (${JSON.stringify(value)} is none of them and no file)`,
			usage,
		);
	return spec;
}

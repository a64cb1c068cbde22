/**
 * `--tokenizer` (option-groups.ts) read, for inspect, diff, replay and the preview: `auto`
 * (the default) counts each model in its own units from the shipped table,
 * `o200k`, `cl100k` or `chars` every model alike, a FILE with that table
 * (`replay --calibrate` writes one).
 */
import { resolve } from "node:path";
import { type UnitsSpec, unitsSpecOf } from "../measure/units.js";
import type { Io } from "./io.js";
import { usageError } from "./usage.js";

/** `--tokenizer`'s value as a units spec; a usage error for a name that is none and no file. */
export function unitsOption(value: string, io: Io): UnitsSpec {
	const spec = unitsSpecOf(value, (p) => resolve(io.cwd, p));
	if (spec === undefined)
		throw usageError(
			`--tokenizer must be auto, o200k, cl100k, chars or a table file (${JSON.stringify(value)} is none of them and no file)`,
		);
	return spec;
}

/**
 * `replay --calibrate`: a units table fitted on recorded usage. Replayed
 * with every estimate's factor set to 1 (so in its encoding's tokens), each
 * pair of consecutive calls gives our growth and the recorded prompt's
 * growth; per family of the table, the factor is the median of recorded /
 * ours (what `recordedFit.ratio` is, so with it the ratio comes to 1), and
 * its error the middle half of recorded / estimated. A family whose own
 * tokenizer is exact keeps no factor; its fit is kept as a check. A family
 * with fewer than {@link MIN_PAIRS} pairs keeps the factor it had, and the
 * fit that factor came from.
 */
import { basename } from "node:path";
import type { FamilyFit, UnitFamily, UnitsSpec, UnitTable } from "../measure/units.js";
import type { SessionReplay } from "./replay.js";

/** Fewer pairs than this do not make a factor. */
export const MIN_PAIRS = 10;

/** `table` with every estimate counted in its encoding's tokens (factor 1): what a calibration replays with. */
export function uncalibrated(table: UnitTable): UnitsSpec {
	return {
		table: {
			...table,
			families: table.families.map((f) => (f.factor === undefined ? f : { ...f, factor: 1 })),
		},
	};
}

/** What a calibration found for one family. */
export interface FamilyCalibration {
	family: string;
	pairs: number;
	/** recorded / ours before (in the encoding's tokens), median; null without pairs where both grew. */
	before: number | null;
	/** The same with the new factor (exact families: the same as before). */
	after: number | null;
	factor: number | undefined;
}

/** The table `table` refitted on the growth pairs of `results`, and what changed per family. */
export function calibrate(
	results: readonly SessionReplay[],
	table: UnitTable,
	date: string,
): { table: Omit<UnitTable, "file">; families: FamilyCalibration[] } {
	const families: UnitFamily[] = [];
	const report: FamilyCalibration[] = [];
	for (const family of table.families) {
		const pairs: [number, number][] = [];
		const sessions: FamilyFit["sessions"] = [];
		for (const r of results) {
			const own = r.notes.growth.filter((g) => g.family === family.family).flatMap((g) => g.pairs);
			if (own.length === 0) continue;
			pairs.push(...own);
			sessions.push({ file: basename(r.file), pairs: own.length });
		}
		const ratios = pairs.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => y / x);
		const before = quantile(ratios, 0.5);
		const refitted = family.factor !== undefined && before !== null && pairs.length >= MIN_PAIRS;
		const factor = refitted ? round(before, 3) : family.factor;
		const scaled = ratios.map((r) => r / (factor ?? 1));
		const after = quantile(scaled, 0.5);
		const low = quantile(scaled, 0.25);
		const high = quantile(scaled, 0.75);
		const fit: FamilyFit = {
			pairs: pairs.length,
			ratio: before === null ? null : round(before, 4),
			spread: low === null || high === null ? null : [round(low, 3), round(high, 3)],
			sessions,
		};
		// A factor not fitted anew keeps the fit it came from; an exact family's check is the new one, if any.
		const kept = refitted || (family.factor === undefined && pairs.length > 0) ? fit : family.fit;
		const { fit: _old, factor: _f, ...rest } = family;
		families.push({
			...rest,
			...(factor === undefined ? {} : { factor }),
			...(kept === undefined ? {} : { fit: kept }),
		});
		report.push({
			family: family.family,
			pairs: pairs.length,
			before,
			after: after === null ? null : round(after, 4),
			factor,
		});
	}
	const about =
		table.about ??
		"Tokens per model family: exact encodings, and estimates fitted on recorded usage";
	return { table: { about, date, families }, families: report };
}

/** The `q` quantile of `values` (linear between the two nearest), null for none. */
export function quantile(values: readonly number[], q: number): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const at = (sorted.length - 1) * q;
	const lo = Math.floor(at);
	const hi = Math.ceil(at);
	const a = sorted[lo] as number;
	return a + ((sorted[hi] as number) - a) * (at - lo);
}

function round(x: number, digits: number): number {
	const f = 10 ** digits;
	return Math.round(x * f) / f;
}

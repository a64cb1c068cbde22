/**
 * The summary over every replayed session: calls and tokens, cost where
 * every call of a session is priced, the fit against recorded usage per
 * provider (all pairs of a provider pooled), and what the second set
 * changes over the corpus.
 */
import { addBills, type Billed, NO_BILL } from "./bill.js";
import { type Fit, fitOf } from "./fit.js";
import type { ReplayChange, ReplayTotal, SessionReplay } from "./replay.js";

/** The report's `summary`. */
export interface ReplaySummary extends ReplayTotal {
	sessions: number;
	failed: number;
	/** Summed over the sessions whose every call is priced; null when none is. */
	cost: number | null;
	/** How many sessions `cost` covers. */
	costedSessions: number;
	/** What the files record as billed; a sub-agent's file given beside its session counted once. */
	billed: Billed;
	/** The models no price matched. */
	unpriced: string[];
	/** The fit of every session's growth pairs pooled, per provider. */
	recordedFit: Record<string, Fit>;
	/** The units of the token figures, each with what it means. */
	units: Record<string, string>;
	/**
	 * With a second side: its name (`set`), the sets it stands in for (the
	 * ones the sessions were replayed with), and the change, its figures
	 * minus theirs.
	 */
	vs?: { set: string; insteadOf: string[]; change: ReplayChange; costedSessions: number };
}

/** The summary of `results`. */
export function summarize(results: readonly SessionReplay[]): ReplaySummary {
	const ok = results.filter((r) => r.error === undefined);
	const sum = (f: (r: SessionReplay) => number) => ok.reduce((s, r) => s + f(r), 0);
	const costed = ok.filter((r) => r.total.cost !== null);
	const pairs = new Map<string, [number, number][]>();
	for (const r of ok) {
		for (const g of r.notes.growth) {
			const list = pairs.get(g.provider) ?? [];
			for (const pair of g.pairs) list.push(pair);
			pairs.set(g.provider, list);
		}
	}
	const recordedFit: Record<string, Fit> = {};
	for (const [provider, list] of [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		const fit = fitOf(list);
		if (fit !== null) recordedFit[provider] = fit;
	}
	const summary: ReplaySummary = {
		sessions: results.length,
		failed: results.length - ok.length,
		calls: sum((r) => r.total.calls),
		contextTokens: sum((r) => r.total.contextTokens),
		cachedTokens: sum((r) => r.total.cachedTokens),
		newTokens: sum((r) => r.total.newTokens),
		outputTokens: sum((r) => r.total.outputTokens),
		cost: costed.length === 0 ? null : costed.reduce((s, r) => s + (r.total.cost ?? 0), 0),
		costedSessions: costed.length,
		billed: billedOf(ok),
		unpriced: [...new Set(ok.flatMap((r) => r.notes.unpriced))].sort(),
		recordedFit,
		units: Object.assign({}, ...ok.map((r) => r.units)),
	};
	const compared = ok.filter((r) => r.vs !== undefined);
	const first = compared[0]?.vs;
	if (first !== undefined) {
		const both = compared.filter((r) => r.vs?.change.cost !== null);
		const change = (f: (c: ReplayChange) => number) =>
			compared.reduce((s, r) => s + f((r.vs as { change: ReplayChange }).change), 0);
		summary.vs = {
			set: first.set,
			insteadOf: [...new Set(compared.map((r) => r.set))],
			change: {
				contextTokens: change((c) => c.contextTokens),
				cachedTokens: change((c) => c.cachedTokens),
				newTokens: change((c) => c.newTokens),
				cost: both.length === 0 ? null : both.reduce((s, r) => s + (r.vs?.change.cost ?? 0), 0),
			},
			costedSessions: both.length,
		};
	}
	return summary;
}

/** The sessions' bills added, leaving out a file another session folded in as its sub-agent's. */
function billedOf(results: readonly SessionReplay[]): Billed {
	const folded = new Set(results.flatMap((r) => r.subagents));
	return results
		.filter((r) => !folded.has(r.file))
		.reduce((sum, r) => addBills(sum, r.billed), NO_BILL);
}

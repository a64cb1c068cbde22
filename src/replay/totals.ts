/**
 * A replay's sums: the usage a message records, the totals of a list of
 * calls, and what a second set changes; their types. Pure.
 */
import type { Recorded } from "./fit.js";

/** One model call, as the report lists it. */
export interface ReplayCall {
	index: number;
	entryId: string;
	model: string | null;
	contextTokens: number;
	cachedTokens: number;
	newTokens: number;
	outputTokens: number | null;
	recorded: Recorded | null;
	cost: number | null;
	/** The unit of the call's token figures: an encoding (`o200k`) or a family's estimate (`claude~`). */
	unit: string;
}

/** A list of calls summed. */
export interface ReplayTotal {
	calls: number;
	contextTokens: number;
	cachedTokens: number;
	newTokens: number;
	outputTokens: number;
	/** Null when any call's cost is unknown (never a partial sum). */
	cost: number | null;
}

/** What the second set changes: its total minus the first's. */
export interface ReplayChange {
	contextTokens: number;
	cachedTokens: number;
	newTokens: number;
	cost: number | null;
}

/** The usage an assistant message records (pi: `usage`), each field or null; null without one. */
export function recordedOf(usage: unknown): Recorded | null {
	if (usage === null || typeof usage !== "object") return null;
	const u = usage as Record<string, unknown>;
	// A field that is no token count (./bill.ts warns of it) is not recorded.
	const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);
	const r = {
		input: num(u.input),
		cacheRead: num(u.cacheRead),
		cacheWrite: num(u.cacheWrite),
		output: num(u.output),
	};
	return Object.values(r).every((v) => v === null) ? null : r;
}

/** The totals of a list of calls. */
export function totalOf(calls: readonly ReplayCall[]): ReplayTotal {
	const sum = (f: (c: ReplayCall) => number) => calls.reduce((s, c) => s + f(c), 0);
	return {
		calls: calls.length,
		contextTokens: sum((c) => c.contextTokens),
		cachedTokens: sum((c) => c.cachedTokens),
		newTokens: sum((c) => c.newTokens),
		outputTokens: sum((c) => c.outputTokens ?? 0),
		cost: calls.some((c) => c.cost === null) ? null : sum((c) => c.cost ?? 0),
	};
}

/** `b` minus `a`. */
export function changeOf(a: ReplayTotal, b: ReplayTotal): ReplayChange {
	return {
		contextTokens: b.contextTokens - a.contextTokens,
		cachedTokens: b.cachedTokens - a.cachedTokens,
		newTokens: b.newTokens - a.newTokens,
		cost: a.cost === null || b.cost === null ? null : b.cost - a.cost,
	};
}

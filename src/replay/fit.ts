/**
 * How well the token model tracks the providers' bills. From one call to
 * the next, the context grows by what was appended; the provider's recorded
 * prompt (`input + cacheRead + cacheWrite`) grows by the same messages in
 * its own tokens. The system prompts differ (the log's agent had its own),
 * so levels are not compared, only growths: their correlation, and the
 * median ratio recorded / ours (the tokenizer's bias for that model family).
 */

/** The recorded usage of a call, as the log holds it. */
export interface Recorded {
	input: number | null;
	cacheRead: number | null;
	cacheWrite: number | null;
	output: number | null;
}

/** How the growths of our context and of the recorded prompt agree. */
export interface Fit {
	/** Pairs of consecutive calls compared. */
	calls: number;
	/** Pearson correlation of the growths (null when it is undefined: fewer than 3 pairs, or no spread). */
	correlation: number | null;
	/** Median of recorded growth / our growth, over the pairs where both grew. */
	ratio: number | null;
}

/** One call's side of the comparison: our whole context, and the recorded prompt (null: none recorded). */
export interface FitPoint {
	context: number;
	prompt: number | null;
}

/** The recorded prompt of a call: input + cacheRead + cacheWrite, when the log records any of them. */
export function recordedPrompt(r: Recorded | null): number | null {
	if (r === null || (r.input === null && r.cacheRead === null && r.cacheWrite === null))
		return null;
	const prompt = (r.input ?? 0) + (r.cacheRead ?? 0) + (r.cacheWrite ?? 0);
	return prompt > 0 ? prompt : null;
}

/** The growth pairs of consecutive calls that both have a recorded prompt. */
export function growths(points: readonly FitPoint[]): [number, number][] {
	const out: [number, number][] = [];
	for (let i = 1; i < points.length; i++) {
		const a = points[i - 1] as FitPoint;
		const b = points[i] as FitPoint;
		if (a.prompt === null || b.prompt === null) continue;
		out.push([b.context - a.context, b.prompt - a.prompt]);
	}
	return out;
}

/** The fit over growth pairs (ours, recorded); null when there are none. */
export function fitOf(pairs: readonly (readonly [number, number])[]): Fit | null {
	if (pairs.length === 0) return null;
	return { calls: pairs.length, correlation: correlation(pairs), ratio: medianRatio(pairs) };
}

function correlation(pairs: readonly (readonly [number, number])[]): number | null {
	if (pairs.length < 3) return null;
	const n = pairs.length;
	const mx = pairs.reduce((s, [x]) => s + x, 0) / n;
	const my = pairs.reduce((s, [, y]) => s + y, 0) / n;
	let sxy = 0;
	let sxx = 0;
	let syy = 0;
	for (const [x, y] of pairs) {
		sxy += (x - mx) * (y - my);
		sxx += (x - mx) ** 2;
		syy += (y - my) ** 2;
	}
	if (sxx === 0 || syy === 0) return null;
	return round(sxy / Math.sqrt(sxx * syy), 4);
}

function medianRatio(pairs: readonly (readonly [number, number])[]): number | null {
	const ratios = pairs
		.filter(([x, y]) => x > 0 && y > 0)
		.map(([x, y]) => y / x)
		.sort((a, b) => a - b);
	if (ratios.length === 0) return null;
	const mid = ratios.length >> 1;
	const median =
		ratios.length % 2 === 1
			? (ratios[mid] as number)
			: ((ratios[mid - 1] as number) + (ratios[mid] as number)) / 2;
	return round(median, 4);
}

function round(x: number, digits: number): number {
	const f = 10 ** digits;
	return Math.round(x * f) / f;
}

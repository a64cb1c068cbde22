/**
 * The nearest of some names to a misspelt one, for "did you mean" hints
 * (template fields and helpers, command-line options). No dependencies: the
 * command line's cold path loads it.
 */

/** Levenshtein distance (names are short). */
export function editDistance(a: string, b: string): number {
	let row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const next = [i];
		for (let j = 1; j <= b.length; j++) {
			const swap = (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
			next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, swap));
		}
		row = next;
	}
	return row[b.length] ?? 0;
}

/** The candidate nearest to `name` within 2 edits (or a third of the name), other than `name`. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
	const limit = Math.max(2, Math.floor(name.length / 3));
	let best: { name: string; d: number } | undefined;
	for (const c of new Set(candidates)) {
		const d = editDistance(name, c);
		if (c !== name && d <= limit && (best === undefined || d < best.d)) best = { name: c, d };
	}
	return best?.name;
}

/**
 * The globs of a price table (`*` any run of characters, `?` one, case
 * ignored): whether a model id matches one (the floor's matcher, which the
 * units table shares), and whether one glob matches every id another does
 * (an earlier entry that hides a later one).
 */

export { globMatches } from "../text/glob.js";

/**
 * Whether every id `inner` matches, `outer` matches too: `outer`'s `*`
 * takes any run of `inner`'s characters and wildcards, its `?` one
 * character or `?`, its other characters the same character (case ignored).
 */
export function globCovers(outer: string, inner: string): boolean {
	const a = [...outer.toLowerCase()];
	const b = [...inner.toLowerCase()];
	// can[i][j]: outer from i covers inner from j.
	const can: boolean[][] = Array.from({ length: a.length + 1 }, () =>
		new Array<boolean>(b.length + 1).fill(false),
	);
	(can[a.length] as boolean[])[b.length] = true;
	for (let i = a.length - 1; i >= 0; i--) {
		const row = can[i] as boolean[];
		const next = can[i + 1] as boolean[];
		for (let j = b.length; j >= 0; j--) {
			const c = a[i];
			const d = b[j];
			if (c === "*") row[j] = (next[j] as boolean) || (j < b.length && (row[j + 1] as boolean));
			else if (d === undefined) row[j] = false;
			else if (c === "?") row[j] = d !== "*" && (next[j + 1] as boolean);
			else row[j] = d === c && (next[j + 1] as boolean);
		}
	}
	return can[0]?.[0] === true;
}

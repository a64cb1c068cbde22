/**
 * Which calls of a session eval asks about: `last` (the default), `all`,
 * a list of indices, or `sample:N`, N of them picked by a generator seeded
 * from the run's seed and the session's name, so the same seed picks the
 * same calls again. Indices are replay's: the model calls of the active
 * branch (an assistant message written in a model's place is none), from 0.
 */
import { ContextError } from "../errors.js";
import { mulberry32 } from "../text/prng.js";

/** A parsed `--calls`. */
export type CallSelection =
	| { kind: "last" }
	| { kind: "all" }
	| { kind: "list"; indices: number[] }
	| { kind: "sample"; count: number };

/** `--calls` read: `last`, `all`, `3,7,12` or `sample:5`. */
export function parseCalls(text: string): CallSelection {
	if (text === "last" || text === "all") return { kind: text };
	const sample = /^sample:(\d+)$/.exec(text);
	if (sample !== null && Number(sample[1]) > 0) return { kind: "sample", count: Number(sample[1]) };
	if (/^\d+(,\d+)*$/.test(text)) {
		return {
			kind: "list",
			indices: [...new Set(text.split(",").map(Number))].sort((a, b) => a - b),
		};
	}
	throw new ContextError(
		"bad_options",
		`--calls is last, all, a list of call indices (3,7,12) or sample:N with N ≥ 1 (got ${JSON.stringify(text)})`,
	);
}

/**
 * The indices `selection` picks among `count` calls, ascending; a listed
 * index the session does not have is an error naming the session.
 */
export function pickCalls(
	selection: CallSelection,
	count: number,
	session: string,
	seed: number,
): number[] {
	switch (selection.kind) {
		case "last":
			return count === 0 ? [] : [count - 1];
		case "all":
			return Array.from({ length: count }, (_, i) => i);
		case "list": {
			const missing = selection.indices.filter((i) => i >= count);
			if (missing.length > 0) {
				throw new ContextError(
					"bad_options",
					`--calls names call ${missing.join(", ")}, but the session has ${count} call${count === 1 ? "" : "s"} (0 to ${count - 1})`,
					{ file: session },
				);
			}
			return selection.indices;
		}
		case "sample":
			return sample(count, selection.count, generator(seed, session));
	}
}

/** `n` of `0..count-1` (all of them when `n ≥ count`), ascending. */
function sample(count: number, n: number, next: () => number): number[] {
	const pool = Array.from({ length: count }, (_, i) => i);
	const k = Math.min(n, count);
	for (let i = 0; i < k; i++) {
		const j = i + Math.floor(next() * (count - i));
		[pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
	}
	return pool.slice(0, k).sort((a, b) => a - b);
}

/** A seed for a run that was given none. */
export function randomSeed(): number {
	return Math.floor(Math.random() * 2 ** 31);
}

/** The generator seeded from the run's seed and the session's name (FNV-1a). */
function generator(seed: number, name: string): () => number {
	let h = 0x811c9dc5 ^ seed;
	for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
	return mulberry32(h);
}

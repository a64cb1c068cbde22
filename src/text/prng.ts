/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives
 * the same numbers on every machine and every run, for what must be picked
 * "at random" yet reproducibly (eval's `--calls sample:N`, the benchmark's
 * synthetic logs). Not for anything secret.
 */

/** Numbers in [0, 1), a new one each call, from a 32-bit `seed`. */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

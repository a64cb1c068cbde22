/**
 * Entry ids to entry indices. Up to {@link SMALL_MAX} ids, a `Map` (native
 * hashing: the fastest in a short process, while the code is still cold:
 * 10k ids in 3.3 ms instead of 7); past that, or when more are expected, an
 * open-addressing hash table over typed arrays. On a million
 * entries a `Map` slows down (it outgrows the caches and is one more large
 * object for the garbage collector to trace); the table stays linear and
 * holds no references but the ids array it was given.
 *
 * A log is input from anyone, so neither can be flooded. The `Map`'s keys
 * are the ids with a NUL after them: never an integer-like string, whose
 * hash is its value (ids 0, 65536, 131072… would share a bucket), so V8's
 * string hash, seeded per process, spreads them. The table's hash is keyed
 * with a random seed per table, and should a lookup still walk more than
 * {@link MAX_PROBES} slots, the table moves everything into a `Map` and uses
 * that from then on. No file can make a lookup cost more than that.
 */

const EMPTY = -1;
/** A probe sequence longer than this means a flood (or a broken hash): switch to a Map. */
export const MAX_PROBES = 64;
/** Ids held in a `Map` before the table takes over. */
export const SMALL_MAX = 1 << 14;
/** After an id in a `Map`'s key: no key is an integer-like string. */
const KEY_END = "\u0000";

/** FNV-1a over the UTF-16 code units from a random basis, then a final mix. */
export function seededHash(seed: number): (id: string) => number {
	return (id: string) => {
		let h = seed;
		for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
		h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
		h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
		return h ^ (h >>> 16);
	};
}

export class IdIndex {
	private slots = new Int32Array(0);
	private hashes = new Int32Array(0);
	private count = 0;
	/** Below {@link SMALL_MAX} ids, or once flooded: ids (keyed with {@link KEY_END}) to indices. */
	private map: Map<string, number> | undefined = new Map();
	/** Whether the map is the flood's way out (for good) rather than the small start. */
	private flood = false;
	private readonly smallMax: number;
	/** A lookup walked more than {@link MAX_PROBES} slots. */
	private overflow = false;
	private readonly hash: (id: string) => number;
	/** Slots visited so far: the table's work, for tests to bound. */
	probes = 0;

	/** `ids[k]` is the id of index `k`: the table stores indices, the ids stay there. */
	constructor(
		private readonly ids: readonly string[],
		options: { hash?: (id: string) => number; smallMax?: number } = {},
	) {
		this.hash = options.hash ?? seededHash((Math.random() * 0x100000000) | 0);
		this.smallMax = options.smallMax ?? SMALL_MAX;
		if (this.smallMax <= 0) this.toTable();
	}

	/**
	 * About `count` ids are coming: past {@link SMALL_MAX}, the table is
	 * taken now (warm, it is faster than a `Map` at any size, and moving
	 * there later costs a pass over what the `Map` holds).
	 */
	expect(count: number): void {
		if (this.map !== undefined && !this.flood && this.map.size + count > this.smallMax) {
			this.toTable();
		}
	}

	/** Whether the table gave up on hashing and uses a Map. */
	get flooded(): boolean {
		return this.flood;
	}

	/** The index of `id`, or undefined. */
	get(id: string): number | undefined {
		if (this.map !== undefined) return this.map.get(id + KEY_END);
		const slot = this.find(id, this.hash(id));
		const index = slot < 0 ? undefined : (this.slots[slot] as number);
		if (this.overflow) this.toMap();
		return index;
	}

	/**
	 * Records that `id` is at `index` (`ids[index]` must be `id` by the next
	 * lookup); a later index replaces an earlier one. Returns the index it had
	 * before, or undefined when it is new.
	 */
	set(id: string, index: number): number | undefined {
		if (this.map !== undefined) {
			const key = id + KEY_END;
			const before = this.map.get(key);
			this.map.set(key, index);
			if (!this.flood && this.map.size > this.smallMax) this.toTable();
			return before;
		}
		if ((this.count + 1) * 2 > this.slots.length) this.grow();
		const h = this.hash(id);
		const slot = this.find(id, h);
		let before: number | undefined;
		if (slot >= 0) {
			before = this.slots[slot] as number;
			this.slots[slot] = index;
		} else {
			this.slots[-1 - slot] = index;
			this.hashes[-1 - slot] = h;
			this.count++;
		}
		if (this.overflow) this.toMap();
		return before;
	}

	/** The slot holding `id` (≥ 0), or -1 - the empty slot where it would go. */
	private find(id: string, h: number): number {
		const mask = this.slots.length - 1;
		let n = 0;
		for (let slot = h & mask; ; slot = (slot + 1) & mask) {
			this.probes++;
			if (++n > MAX_PROBES) this.overflow = true;
			const k = this.slots[slot] as number;
			if (k === EMPTY) return -1 - slot;
			if (this.hashes[slot] === h && this.ids[k] === id) return slot;
		}
	}

	/** The table is flooded: every id moves into a Map, used from now on. */
	private toMap(): void {
		const map = new Map<string, number>();
		for (let s = 0; s < this.slots.length; s++) {
			const k = this.slots[s] as number;
			if (k !== EMPTY) map.set((this.ids[k] as string) + KEY_END, k);
		}
		this.map = map;
		this.flood = true;
		this.slots = new Int32Array(0);
		this.hashes = new Int32Array(0);
	}

	/** Past the small start: every id moves from the Map into the table. */
	private toTable(): void {
		const map = this.map;
		this.map = undefined;
		let size = 1024;
		while (size < 4 * (map?.size ?? 0)) size *= 2;
		this.slots = new Int32Array(size).fill(EMPTY);
		this.hashes = new Int32Array(size);
		if (map === undefined) return;
		// Should the table flood while they move, the rest go to the flood's Map.
		for (const [key, index] of map) this.set(key.slice(0, -KEY_END.length), index);
	}

	private grow(): void {
		const slots = this.slots;
		const hashes = this.hashes;
		this.slots = new Int32Array(slots.length * 2).fill(EMPTY);
		this.hashes = new Int32Array(slots.length * 2);
		const mask = this.slots.length - 1;
		for (let s = 0; s < slots.length; s++) {
			const k = slots[s] as number;
			if (k === EMPTY) continue;
			let t = (hashes[s] as number) & mask;
			for (let n = 0; this.slots[t] !== EMPTY; n++) {
				this.probes++;
				if (n > MAX_PROBES) {
					// Put back what the old table held, and give up on hashing.
					this.slots = slots;
					this.toMap();
					return;
				}
				t = (t + 1) & mask;
			}
			this.slots[t] = k;
			this.hashes[t] = hashes[s] as number;
		}
	}
}

/**
 * Entry ids to entry indices: an open-addressing hash table over typed
 * arrays. On a million entries a `Map` slows down (it outgrows the caches and
 * is one more large object for the garbage collector to trace); this table
 * stays linear and holds no references but the ids array it was given.
 *
 * A log is input from anyone, so the table cannot be flooded: its hash is
 * keyed with a random seed per table, and should a lookup still walk more
 * than {@link MAX_PROBES} slots, the table moves everything into a `Map` and
 * uses that from then on. No file can make a lookup cost more than that.
 */

const EMPTY = -1;
/** A probe sequence longer than this means a flood (or a broken hash): switch to a Map. */
export const MAX_PROBES = 64;

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
	private slots = new Int32Array(1024).fill(EMPTY);
	private hashes = new Int32Array(1024);
	private count = 0;
	private map: Map<string, number> | undefined;
	/** A lookup walked more than {@link MAX_PROBES} slots. */
	private overflow = false;
	private readonly hash: (id: string) => number;
	/** Slots visited so far: the table's work, for tests to bound. */
	probes = 0;

	/** `ids[k]` is the id of index `k`: the table stores indices, the ids stay there. */
	constructor(
		private readonly ids: readonly string[],
		options: { hash?: (id: string) => number } = {},
	) {
		this.hash = options.hash ?? seededHash((Math.random() * 0x100000000) | 0);
	}

	/** Whether the table gave up on hashing and uses a Map. */
	get flooded(): boolean {
		return this.map !== undefined;
	}

	/** The index of `id`, or undefined. */
	get(id: string): number | undefined {
		if (this.map !== undefined) return this.map.get(id);
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
		if (this.map === undefined && (this.count + 1) * 2 > this.slots.length) this.grow();
		if (this.map !== undefined) {
			const before = this.map.get(id);
			this.map.set(id, index);
			return before;
		}
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
			if (k !== EMPTY) map.set(this.ids[k] as string, k);
		}
		this.map = map;
		this.slots = new Int32Array(0);
		this.hashes = new Int32Array(0);
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

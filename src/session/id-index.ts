/**
 * Entry ids to entry indices: an open-addressing hash table over typed
 * arrays. On a million entries a `Map` slows down (it outgrows the caches and
 * is one more large object for the garbage collector to trace); this table
 * stays linear and holds no references but the ids array it was given.
 */

const EMPTY = -1;

/** FNV-1a over the UTF-16 code units. */
function hash(id: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < id.length; i++) {
		h ^= id.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h;
}

export class IdIndex {
	private slots = new Int32Array(1024).fill(EMPTY);
	private hashes = new Int32Array(1024);
	private count = 0;

	/** `ids[k]` is the id of index `k`: the table stores indices, the ids stay there. */
	constructor(private readonly ids: readonly string[]) {}

	/** The index of `id`, or undefined. */
	get(id: string): number | undefined {
		const slot = this.find(id, hash(id));
		return slot < 0 ? undefined : (this.slots[slot] as number);
	}

	/**
	 * Records that `id` is at `index` (`ids[index]` must be `id` by the next
	 * lookup). Returns the index it already had, or undefined when it is new.
	 */
	add(id: string, index: number): number | undefined {
		if ((this.count + 1) * 2 > this.slots.length) this.grow();
		const h = hash(id);
		const slot = this.find(id, h);
		if (slot >= 0) return this.slots[slot] as number;
		this.slots[-1 - slot] = index;
		this.hashes[-1 - slot] = h;
		this.count++;
		return undefined;
	}

	/** The slot holding `id` (≥ 0), or -1 - the empty slot where it would go. */
	private find(id: string, h: number): number {
		const mask = this.slots.length - 1;
		for (let slot = h & mask; ; slot = (slot + 1) & mask) {
			const k = this.slots[slot] as number;
			if (k === EMPTY) return -1 - slot;
			if (this.hashes[slot] === h && this.ids[k] === id) return slot;
		}
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
			while (this.slots[t] !== EMPTY) t = (t + 1) & mask;
			this.slots[t] = k;
			this.hashes[t] = hashes[s] as number;
		}
	}
}

/**
 * The counts of ASCII pieces that are no token (./bpe.ts), kept by their
 * characters: an open-addressing table over one byte arena, so a look-up
 * makes no string (a `Map` keyed by the piece would need a slice of the
 * text for every look-up, and the garbage of each). The hash is the one the
 * counter has already taken of the piece to look it up in the ranks. When
 * the table or its arena is full it starts over: a cache, bounded.
 */

/** Entries held at most (each four numbers: start, length, count, hash). */
const ENTRIES = 1 << 13;
const SLOTS = ENTRIES * 2;
const MASK = SLOTS - 1;
/** Characters held at most. */
const ARENA = 1 << 18;

/** Counts of ASCII pieces, by their characters. */
export class AsciiCounts {
	/** Entry + 1 per slot; 0 is empty. */
	private readonly slots = new Int32Array(SLOTS);
	private readonly entries = new Int32Array(ENTRIES * 4);
	private readonly chars = new Uint8Array(ARENA);
	private size = 0;
	private used = 0;

	/** The count of `text[s..e)` (ASCII, hashed `h`), or -1 when none is kept. */
	get(text: string, s: number, e: number, h: number): number {
		const length = e - s;
		const { slots, entries, chars } = this;
		for (let slot = h & MASK; ; slot = (slot + 1) & MASK) {
			const entry = ((slots[slot] as number) - 1) * 4;
			if (entry < 0) return -1;
			if (entries[entry + 3] !== h || entries[entry + 1] !== length) continue;
			const o = entries[entry] as number;
			let k = 0;
			while (k < length && chars[o + k] === text.charCodeAt(s + k)) k++;
			if (k === length) return entries[entry + 2] as number;
		}
	}

	/** Keeps `count` for `text[s..e)` (ASCII, hashed `h`, not kept yet). */
	set(text: string, s: number, e: number, h: number, count: number): void {
		const length = e - s;
		if (length > ARENA) return;
		if (this.size === ENTRIES || this.used + length > ARENA) {
			this.slots.fill(0);
			this.size = 0;
			this.used = 0;
		}
		const o = this.used;
		for (let k = 0; k < length; k++) this.chars[o + k] = text.charCodeAt(s + k);
		this.used += length;
		const entry = this.size++;
		this.entries[entry * 4] = o;
		this.entries[entry * 4 + 1] = length;
		this.entries[entry * 4 + 2] = count;
		this.entries[entry * 4 + 3] = h;
		let slot = h & MASK;
		while (this.slots[slot] !== 0) slot = (slot + 1) & MASK;
		this.slots[slot] = entry + 1;
	}
}

/**
 * The entries' objects, by index (file order), with where each one's line
 * lies in the file. Objects a compaction has put out of the context are let
 * go as soon as the compaction is read, and, with a byte budget, so are the
 * oldest ones once more than the budget is held: an entry needed again is
 * read back (by whoever reads the file, see `open-log.ts`). A huge log whose
 * latest compaction keeps a short tail thus projects in little memory.
 */
import { doubles, ints } from "./columns.js";
import type { ParsedEntry } from "./parse.js";
import type { Entry } from "./schema.js";

/** What the tree and the projection read of the entries. */
export interface EntrySource {
	/** The entry at index `i`, read back from the log if it was let go. */
	entry(i: number): Entry;
	/** Its 1-based line in the file. */
	line(i: number): number;
	/** Makes sure the entries at `indices` are held, reading back all missing ones at once. */
	materialize(indices: readonly number[]): void;
	/** Whether any entry was ever let go; until then nothing needs reading back. */
	readonly everLetGo: boolean;
	/** Whether entries are let go past a byte budget (a lean read): the context is read back, and checked, on each use. */
	readonly lean: boolean;
}

/** Reads entries back: their indices (sorted) in, their objects out, in order. */
export type ReadBack = (indices: readonly number[]) => Entry[];

export class EntryStore implements EntrySource {
	private readonly objects: (Entry | undefined)[] = [];
	private readonly lineCol = ints();
	private readonly offsetCol = doubles();
	private readonly lengthCol = ints();
	private heldBytes = 0;
	/** The oldest index that may still be held (in FIFO order). */
	private oldestHeld = 0;
	/** Entries read back after they were let go (outside the FIFO order). */
	private readonly readBackSet = new Set<number>();
	everLetGo = false;

	constructor(
		private readonly readBack: ReadBack,
		private readonly retainBytes = Number.POSITIVE_INFINITY,
	) {}

	get size(): number {
		return this.objects.length;
	}
	get lean(): boolean {
		return this.retainBytes !== Number.POSITIVE_INFINITY;
	}
	line(i: number): number {
		return this.lineCol.data[i] as number;
	}
	span(i: number): { offset: number; length: number } {
		return { offset: this.offsetCol.data[i] as number, length: this.lengthCol.data[i] as number };
	}

	/** Adds a parsed entry; returns its index. */
	push({ entry, line, offset, length }: ParsedEntry): number {
		const i = this.objects.length;
		if (i >= this.lengthCol.data.length) {
			for (const col of [this.lineCol, this.offsetCol, this.lengthCol]) col.grow(i + 1);
		}
		this.objects.push(entry);
		this.lineCol.data[i] = line;
		this.offsetCol.data[i] = offset;
		this.lengthCol.data[i] = length;
		this.heldBytes += length;
		if (this.heldBytes > this.retainBytes) this.letGoOldest();
		return i;
	}

	entry(i: number): Entry {
		const held = this.objects[i];
		if (held !== undefined) return held;
		this.materialize([i]);
		return this.objects[i] as Entry;
	}

	materialize(indices: readonly number[]): void {
		const missing = indices.filter((i) => this.objects[i] === undefined);
		if (missing.length === 0) return;
		missing.sort((a, b) => a - b);
		const entries = this.readBack(missing);
		missing.forEach((i, k) => {
			this.objects[i] = entries[k] as Entry;
			this.heldBytes += this.lengthCol.data[i] as number;
			this.readBackSet.add(i);
		});
	}

	/** What lies before `first` (in file order) is out of the context: let it go. */
	letGoBefore(first: number): void {
		for (; this.oldestHeld < first; this.oldestHeld++) this.letGo(this.oldestHeld);
		for (const i of this.readBackSet) if (i < first) this.letGo(i);
	}

	/** Over budget: let the oldest entries go until half the budget is free. */
	private letGoOldest(): void {
		for (const i of this.readBackSet) this.letGo(i);
		const target = this.retainBytes / 2;
		const last = this.objects.length - 1;
		for (; this.heldBytes > target && this.oldestHeld < last; this.oldestHeld++)
			this.letGo(this.oldestHeld);
	}

	private letGo(i: number): void {
		if (this.objects[i] === undefined) return;
		this.objects[i] = undefined;
		this.everLetGo = true;
		this.heldBytes -= this.lengthCol.data[i] as number;
		this.readBackSet.delete(i);
	}
}

/**
 * The entry tree, indexed as entries arrive. Each entry gets an index (its
 * position in file order); parents, depths and "nearest ancestor of kind X"
 * pointers live in typed arrays, so the projection can find the latest
 * compaction, collapse summary, model and thinking level of any branch in
 * O(1) and walk only the part of the branch the context contains.
 *
 * The index is small; the entries' objects are not. Objects a compaction has
 * put out of the context are let go as soon as the compaction is read, and,
 * with a byte budget, so are the oldest ones once more than the budget is
 * held: an entry that is needed again is read back from the file by its
 * offset. A huge log whose latest compaction keeps a short tail thus projects
 * in little memory.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { type MigrationState, migrateEntry } from "../log/migrate.js";
import { Kind, type ParsedEntry } from "../log/parse.js";
import type { CompactionEntry, Entry, MessageEntry, SessionMetadata } from "../log/schema.js";
import { IdIndex } from "./id-index.js";

const NONE = -1;

/** Numeric columns, grown by half again each time. */
class Column<A extends Uint8Array | Int32Array | Float64Array> {
	constructor(public data: A) {}
	grow(size: number): void {
		if (size <= this.data.length) return;
		let length = Math.ceil(this.data.length * 1.5);
		while (length < size) length = Math.ceil(length * 1.5);
		const next = new (this.data.constructor as new (n: number) => A)(length);
		next.set(this.data);
		this.data = next;
	}
}
const ints = () => new Column(new Int32Array(1024));

/** Reads lines back from the log: byte spans in, their texts out, in order. */
export type LineReader = (spans: readonly { offset: number; length: number }[]) => string[];

/** In the kind column, the bit that marks an assistant message naming its model. */
const SETS_MODEL = 0x80;

export class SessionTree {
	readonly ids: string[] = [];
	readonly byId = new IdIndex(this.ids);
	/** The session-wide metadata fold (a prototype-less map: keys come from the log). */
	readonly metadata: SessionMetadata = Object.create(null);
	/** Structural findings (lenient mode only; otherwise they throw). */
	readonly diagnostics: Diagnostic[] = [];
	/** The default leaf: the last entry in file order that is not session-level. */
	leaf = NONE;
	/** Where entries that were let go are read back from (set by whoever reads the file). */
	reader: LineReader | undefined;
	/** The log's version, for migrating entries read back. */
	version = 3;
	/**
	 * Lenient mode kept an entry whose parent was missing as a root. A later
	 * append may bring that parent, so such a tree must not be reused.
	 */
	detached = false;

	/** Entry objects held, by index; undefined once let go. */
	private readonly objects: (Entry | undefined)[] = [];
	private readonly lineCol = ints();
	/** The entry's {@link Kind}, with {@link SETS_MODEL} or'ed in. */
	private readonly kindCol = new Column(new Uint8Array(1024));
	private readonly offsetCol = new Column(new Float64Array(1024));
	private readonly lengthCol = ints();
	private readonly parentCol = ints();
	private readonly depthCol = ints();
	/** Nearest ancestor-or-self: latest compaction, compact_context, model, thinking level. */
	private readonly compactionCol = ints();
	private readonly collapseCol = ints();
	private readonly modelCol = ints();
	private readonly thinkingCol = ints();
	private readonly columns = [
		this.lineCol,
		this.kindCol,
		this.offsetCol,
		this.lengthCol,
		this.parentCol,
		this.depthCol,
		this.compactionCol,
		this.collapseCol,
		this.modelCol,
		this.thinkingCol,
	];
	/** Entries whose parent was not known when they were added, with that parent's id. */
	private unresolved: { i: number; parentId: string }[] = [];
	/** Bytes of the entries held as objects, the oldest index that may still be held, the budget. */
	private heldBytes = 0;
	private oldestHeld = 0;
	private readonly retainBytes: number;
	/** Whether any entry was ever let go; until then nothing needs reading back. */
	everLetGo = false;
	/** Entries read back after they were let go (outside the FIFO order). */
	private readonly readBack = new Set<number>();

	constructor(
		readonly file: string,
		private readonly lenient = false,
		options: { retainBytes?: number } = {},
	) {
		this.retainBytes = options.retainBytes ?? Number.POSITIVE_INFINITY;
	}

	get size(): number {
		return this.ids.length;
	}
	line(i: number): number {
		return this.lineCol.data[i] as number;
	}
	kind(i: number): number {
		return (this.kindCol.data[i] as number) & ~SETS_MODEL;
	}
	parent(i: number): number {
		return this.parentCol.data[i] as number;
	}
	depth(i: number): number {
		return this.depthCol.data[i] as number;
	}
	latestCompaction(i: number): number {
		return this.compactionCol.data[i] as number;
	}
	latestCollapse(i: number): number {
		return this.collapseCol.data[i] as number;
	}
	latestModel(i: number): number {
		return this.modelCol.data[i] as number;
	}
	latestThinkingLevel(i: number): number {
		return this.thinkingCol.data[i] as number;
	}

	/** The entry at index `i`, read back from the log if it was let go. */
	entry(i: number): Entry {
		if (this.objects[i] === undefined) this.materialize([i]);
		return this.objects[i] as Entry;
	}

	/** Makes sure the entries at `indices` are held, reading back all missing ones at once. */
	materialize(indices: readonly number[]): void {
		const missing = indices.filter((i) => this.objects[i] === undefined);
		if (missing.length === 0) return;
		if (this.reader === undefined)
			throw new Error("an entry was let go but the tree has no reader");
		missing.sort((a, b) => a - b);
		const texts = this.reader(
			missing.map((i) => ({
				offset: this.offsetCol.data[i] as number,
				length: this.lengthCol.data[i] as number,
			})),
		);
		missing.forEach((i, k) => {
			const raw = JSON.parse(texts[k] as string) as Record<string, unknown>;
			const p = this.parent(i);
			const state: MigrationState = { previousId: p === NONE ? null : (this.ids[p] as string) };
			migrateEntry(raw, this.version, this.line(i), state);
			this.objects[i] = raw as Entry;
			this.heldBytes += this.lengthCol.data[i] as number;
			this.readBack.add(i);
		});
	}

	/** Adds one parsed entry. Call {@link finish} once the batch is in. */
	add({ entry, kind, line, offset, length }: ParsedEntry): void {
		const i = this.ids.length;
		const id = entry.id;
		// Looked up before this entry is known, so a self-reference is caught as a cycle;
		// most entries follow their parent, which spares the map.
		const parentId = entry.parentId;
		const parent =
			parentId === null
				? NONE
				: i > 0 && this.ids[i - 1] === parentId
					? i - 1
					: this.byId.get(parentId);
		const first = this.byId.add(id, i);
		if (first !== undefined) {
			const reason = `duplicate id ${JSON.stringify(id)} on line ${line} (first on line ${this.line(first)})`;
			this.structural("duplicate_id", reason, line, "the later line skipped");
			return;
		}
		if (i >= this.parentCol.data.length) for (const col of this.columns) col.grow(i + 1);
		this.ids.push(id);
		this.objects.push(entry);
		this.lineCol.data[i] = line;
		const setsModel = kind === Kind.Message && namesModel(entry as MessageEntry);
		this.kindCol.data[i] = setsModel ? kind | SETS_MODEL : kind;
		this.offsetCol.data[i] = offset;
		this.lengthCol.data[i] = length;
		this.heldBytes += length;

		if (parent === undefined) {
			this.parentCol.data[i] = NONE;
			this.unresolved.push({ i, parentId: entry.parentId as string });
		} else {
			this.parentCol.data[i] = parent;
			this.inherit(i);
		}
		if (kind === Kind.Metadata) this.fold(entry);
		else if (kind !== Kind.SessionLevel) this.leaf = i;
		if (kind === Kind.Compaction) this.letGoBefore((entry as CompactionEntry).firstKeptEntryId);
		if (this.heldBytes > this.retainBytes) this.letGoOldest();
	}

	/** After a compaction, what lies before its first kept entry (in file order) is out of the context. */
	private letGoBefore(firstKeptId: string | undefined): void {
		const first = firstKeptId === undefined ? undefined : this.byId.get(firstKeptId);
		if (first === undefined) return;
		for (; this.oldestHeld < first; this.oldestHeld++) this.letGo(this.oldestHeld);
		for (const i of this.readBack) if (i < first) this.letGo(i);
	}

	/** Over budget: let the oldest entries go until half the budget is free. */
	private letGoOldest(): void {
		for (const i of this.readBack) this.letGo(i);
		const target = this.retainBytes / 2;
		const last = this.ids.length - 1;
		for (; this.heldBytes > target && this.oldestHeld < last; this.oldestHeld++)
			this.letGo(this.oldestHeld);
	}

	private letGo(i: number): void {
		if (this.objects[i] === undefined) return;
		this.objects[i] = undefined;
		this.everLetGo = true;
		this.heldBytes -= this.lengthCol.data[i] as number;
		this.readBack.delete(i);
	}

	/** Resolves forward parent references; rejects unknown parents and cycles. */
	finish(): void {
		if (this.unresolved.length === 0) return;
		const pending = this.unresolved;
		this.unresolved = [];
		for (const { i, parentId } of pending) {
			const parent = this.byId.get(parentId);
			if (parent === undefined) {
				const reason = `parentId ${JSON.stringify(parentId)} names no entry`;
				this.structural("unknown_parent", reason, this.line(i), "kept as a root");
				this.detached = true;
				continue;
			}
			this.parentCol.data[i] = parent;
		}
		this.breakCycles();
		this.inheritAll();
	}

	private inherit(i: number): void {
		const p = this.parentCol.data[i] as number;
		const kind = this.kind(i);
		const setsModel =
			kind === Kind.ModelChange || ((this.kindCol.data[i] as number) & SETS_MODEL) !== 0;
		if (p === NONE) {
			this.depthCol.data[i] = 0;
			this.compactionCol.data[i] = kind === Kind.Compaction ? i : NONE;
			this.collapseCol.data[i] = kind === Kind.CompactContext ? i : NONE;
			this.thinkingCol.data[i] = kind === Kind.ThinkingLevelChange ? i : NONE;
			this.modelCol.data[i] = setsModel ? i : NONE;
			return;
		}
		this.depthCol.data[i] = (this.depthCol.data[p] as number) + 1;
		this.compactionCol.data[i] =
			kind === Kind.Compaction ? i : (this.compactionCol.data[p] as number);
		this.collapseCol.data[i] =
			kind === Kind.CompactContext ? i : (this.collapseCol.data[p] as number);
		this.thinkingCol.data[i] =
			kind === Kind.ThinkingLevelChange ? i : (this.thinkingCol.data[p] as number);
		this.modelCol.data[i] = setsModel ? i : (this.modelCol.data[p] as number);
	}

	/** Recomputes inherited columns in parent-first order (after forward references). */
	private inheritAll(): void {
		const done = new Uint8Array(this.size);
		const stack: number[] = [];
		for (let i = 0; i < this.size; i++) {
			let x = i;
			while (x !== NONE && done[x] === 0) {
				stack.push(x);
				x = this.parentCol.data[x] as number;
			}
			while (stack.length > 0) {
				const y = stack.pop() as number;
				this.inherit(y);
				done[y] = 1;
			}
		}
	}

	/** Finds parentId cycles in O(n): an error naming the entries, never a hang. */
	private breakCycles(): void {
		const state = new Uint8Array(this.size); // 0 new, 1 on the current walk, 2 done
		const walk: number[] = [];
		for (let i = 0; i < this.size; i++) {
			let x = i;
			while (x !== NONE && state[x] === 0) {
				state[x] = 1;
				walk.push(x);
				x = this.parentCol.data[x] as number;
			}
			if (x !== NONE && state[x] === 1) {
				const cycle = walk.slice(walk.indexOf(x));
				const names = cycle.map((c) => `${this.ids[c]} (line ${this.line(c)})`);
				const reason = `parentId cycle: ${names.join(" → ")} → ${this.ids[x]}`;
				this.structural("parent_cycle", reason, this.line(x), `cut: ${this.ids[x]} kept as a root`);
				this.parentCol.data[x] = NONE;
			}
			for (const y of walk) state[y] = 2;
			walk.length = 0;
		}
	}

	private fold(entry: Entry): void {
		const data = (entry as { data?: Record<string, unknown> }).data ?? {};
		for (const [key, value] of Object.entries(data)) {
			if (value === null) delete this.metadata[key];
			else this.metadata[key] = value;
		}
	}

	/** A broken tree: an error, or in lenient mode a diagnostic saying what was salvaged. */
	private structural(
		code: "duplicate_id" | "unknown_parent" | "parent_cycle",
		reason: string,
		line: number,
		salvage: string,
	): void {
		if (!this.lenient) throw new ContextError(code, reason, { file: this.file, line });
		this.diagnostics.push({
			severity: "warning",
			code,
			message: `${reason}; ${salvage}`,
			file: this.file,
			line,
		});
	}
}

/** An assistant message that says which model wrote it. */
function namesModel(entry: MessageEntry): boolean {
	const m = entry.message as { role: string; provider?: unknown; model?: unknown };
	return m.role === "assistant" && typeof m.provider === "string" && typeof m.model === "string";
}

/**
 * The entry tree: a structural index over the entries a log hands over, in
 * file order. Each entry gets an index (its position in file order); parents,
 * depths and "nearest ancestor of kind X" pointers live in typed arrays, so
 * the projection can find the latest compaction, collapse summary, model and
 * thinking level of any branch in O(1) and walk only the part of the branch
 * the context contains. No I/O: the entries' objects stay with the log's
 * store ({@link EntrySource}), which may read them back.
 *
 * Broken structure is repaired as pi does, with a warning (an error in strict
 * mode): a duplicate id is the later entry's, a parentId naming no entry
 * starts the branch, a cycle is cut where it closes.
 *
 * A repair is kept: a later batch of appended entries is added to the
 * repaired tree as to a clean one. Only an append that would change what an
 * earlier entry is (a duplicate of an earlier id, or the entry an orphan's
 * parentId named) sets {@link SessionTree.rewired}: a read of the whole file
 * would now give another tree, so the tree's owner reads it afresh.
 */
import { ContextError, type ErrorCode } from "../errors.js";
import { bytes, ints } from "../log/columns.js";
import { Diagnostics } from "../log/diagnostics.js";
import type { EntrySource } from "../log/entry-store.js";
import { Kind } from "../log/kinds.js";
import type { EntrySink } from "../log/open-log.js";
import type { Entry, SessionMetadata } from "../log/schema.js";
import { IdIndex } from "./id-index.js";

export const NONE = -1;
/** A cycle's warning names this many of its entries, and counts the rest. */
const MAX_NAMED = 10;
/** In the kind column, the bit that marks an assistant message naming its model. */
const SETS_MODEL = 0x80;

export class SessionTree implements EntrySink {
	readonly ids: string[] = [];
	readonly byId = new IdIndex(this.ids);
	/** The session-wide metadata fold (a prototype-less map: keys come from the log). */
	readonly metadata: SessionMetadata = Object.create(null);
	/** The line that last set each metadata key, to point at it (a pin to a set that does not exist). */
	readonly metadataLines: Record<string, number> = Object.create(null);
	/** Structural repairs (in strict mode they throw instead). */
	readonly diagnostics: Diagnostics;
	/** The default leaf: the last entry in file order, but a side record (`session_metadata`, parentId null). */
	leaf = NONE;
	/** The structure was repaired (a missing parent, a duplicate id, a cycle). */
	repaired = false;
	/**
	 * An appended batch named an id an earlier batch already held, or the
	 * missing parent of an earlier orphan: this tree is no longer what the
	 * whole file gives, and must be read afresh.
	 */
	rewired = false;

	private readonly kindCol = bytes();
	private readonly parentCol = ints();
	private readonly depthCol = ints();
	/** Nearest ancestor-or-self: latest compaction, compact_context, model, thinking level. */
	private readonly compactionCol = ints();
	private readonly collapseCol = ints();
	private readonly modelCol = ints();
	private readonly thinkingCol = ints();
	private readonly columns = [
		this.kindCol,
		this.parentCol,
		this.depthCol,
		this.compactionCol,
		this.collapseCol,
		this.modelCol,
		this.thinkingCol,
	];
	/** Entries whose parent was not known when they were added, with that parent's id. */
	private unresolved: { i: number; parentId: string }[] = [];
	/** Entries a later duplicate of their id replaced. */
	private readonly shadowed = new Set<number>();
	/** The parent ids that orphans of finished batches name (none in a clean tree). */
	private readonly orphanParents = new Set<string>();
	/** How many entries earlier batches added: an id among them is an earlier entry's. */
	private finished = 0;
	/** The parentId of each entry the log skipped as invalid, by its id: a link of the tree still. */
	private readonly links = new Map<string, string | null>();
	/** The links a parent was found through: an entry with one's id now would change that parent. */
	private readonly usedLinks = new Set<string>();

	constructor(
		/** The entries' objects and lines, by index. */
		readonly entries: EntrySource,
		readonly file: string,
		private readonly strict = false,
	) {
		this.diagnostics = new Diagnostics(file);
	}

	get size(): number {
		return this.ids.length;
	}
	entry(i: number): Entry {
		return this.entries.entry(i);
	}
	line(i: number): number {
		return this.entries.line(i);
	}
	kind(i: number): Kind {
		return ((this.kindCol.data[i] as number) & ~SETS_MODEL) as Kind;
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
	indexOf(id: string): number | undefined {
		return this.byId.get(id);
	}
	idAt(i: number): string {
		return this.ids[i] as string;
	}
	kindAt(i: number): Kind {
		return this.kind(i);
	}

	/** About `entries` entries are coming: the id index gets ready for them. */
	expect(entries: number): void {
		this.byId.expect(entries);
	}

	/** Adds the entry at index `i` (the next one). Call {@link finish} once the batch is in. */
	add(entry: Entry, kind: Kind, i: number): void {
		const { id, parentId } = entry;
		// Looked up before this entry is known, so a self-reference is caught as a cycle;
		// most entries follow their parent, which spares the table.
		const parent =
			parentId === null
				? NONE
				: i > 0 &&
						this.ids[i - 1] === parentId &&
						(this.shadowed.size === 0 || !this.shadowed.has(i - 1))
					? i - 1
					: this.byId.get(parentId);
		if (i >= this.parentCol.data.length) for (const col of this.columns) col.grow(i + 1);
		this.ids.push(id);
		const before = this.byId.set(id, i);
		if (
			(before !== undefined && before < this.finished) ||
			this.orphanParents.has(id) ||
			this.usedLinks.has(id)
		) {
			this.rewired = true;
		}
		if (before !== undefined) {
			const reason = `duplicate id ${JSON.stringify(id)} on line ${this.line(i)} (first on line ${this.line(before)})`;
			this.repair("duplicate_id", reason, this.line(i), "the later entry wins, as in pi");
			this.shadowed.add(before);
		}
		const setsModel = kind === Kind.Message && namesModel(entry);
		this.kindCol.data[i] = setsModel ? kind | SETS_MODEL : kind;
		if (parent === undefined) {
			this.parentCol.data[i] = NONE;
			this.unresolved.push({ i, parentId: parentId as string });
		} else {
			this.parentCol.data[i] = parent;
			this.inherit(i);
		}
		if (kind === Kind.Metadata) this.fold(entry, i);
		if (!(kind === Kind.Metadata && parentId === null)) this.leaf = i;
	}

	/** An entry skipped as invalid: an entry whose parentId names it hangs from its parent. */
	link(id: string, parentId: string | null): void {
		// A link that an orphan waited for, or one a parent was found through, changes what a fresh read gives.
		if (this.orphanParents.has(id) || this.usedLinks.has(id)) this.rewired = true;
		this.links.set(id, parentId);
	}

	/**
	 * The entry `parentId` names, through entries skipped as invalid (their
	 * links): its index, NONE (a skipped root), or the id that names neither.
	 */
	private resolveParent(parentId: string): number | { missing: string } {
		let id: string | null = parentId;
		const seen = new Set<string>();
		while (id !== null && !seen.has(id)) {
			const found = this.byId.get(id);
			if (found !== undefined) return found;
			if (!this.links.has(id)) return { missing: id };
			seen.add(id);
			this.usedLinks.add(id);
			id = this.links.get(id) as string | null;
		}
		return NONE;
	}

	/** Resolves forward parent references and duplicates; repairs unknown parents and cycles. */
	finish(): void {
		const clean = this.unresolved.length === 0 && this.shadowed.size === 0;
		this.finished = this.size;
		if (clean) return;
		if (this.shadowed.size > 0) {
			// As in pi, a parentId names the last entry with that id.
			for (let i = 0; i < this.size; i++) {
				const p = this.parentCol.data[i] as number;
				if (p !== NONE && this.shadowed.has(p)) {
					this.parentCol.data[i] = this.byId.get(this.ids[p] as string) as number;
				}
			}
			this.shadowed.clear();
		}
		const pending = this.unresolved;
		this.unresolved = [];
		for (const { i, parentId } of pending) {
			const parent = this.resolveParent(parentId);
			if (typeof parent !== "number") {
				const { missing } = parent;
				const reason =
					missing === parentId
						? `parentId ${JSON.stringify(parentId)} names no entry`
						: `parentId ${JSON.stringify(parentId)} names an entry skipped as invalid, whose line of parents ends at ${JSON.stringify(missing)}, which names no entry`;
				this.repair(
					"unknown_parent",
					reason,
					this.line(i),
					"the entry starts the branch, as in pi",
				);
				// An entry with this id appended later would change this entry's parent.
				this.orphanParents.add(missing);
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
		const own = (k: Kind, col: { data: Int32Array }) =>
			kind === k ? i : p === NONE ? NONE : (col.data[p] as number);
		this.depthCol.data[i] = p === NONE ? 0 : (this.depthCol.data[p] as number) + 1;
		this.compactionCol.data[i] = own(Kind.Compaction, this.compactionCol);
		this.collapseCol.data[i] = own(Kind.CompactContext, this.collapseCol);
		this.thinkingCol.data[i] = own(Kind.ThinkingLevelChange, this.thinkingCol);
		this.modelCol.data[i] = setsModel ? i : p === NONE ? NONE : (this.modelCol.data[p] as number);
	}

	/** Recomputes inherited columns in parent-first order (after forward references). */
	private inheritAll(): void {
		const done = new Uint8Array(this.size);
		const stack: number[] = [];
		for (let i = 0; i < this.size; i++) {
			for (let x = i; x !== NONE && done[x] === 0; x = this.parentCol.data[x] as number) {
				stack.push(x);
			}
			for (let y = stack.pop(); y !== undefined; y = stack.pop()) {
				this.inherit(y);
				done[y] = 1;
			}
		}
	}

	/**
	 * Finds parentId cycles in O(n) and cuts each where it closes: at the
	 * entry whose parent comes latest in the file (a log is written parent
	 * first, so that is the link that went wrong). That entry starts the
	 * branch, and the rest of the cycle hangs from it as before: a leaf on
	 * the cycle keeps every entry of it. The cut depends on the cycle alone,
	 * so a reload in pieces cuts where a fresh read does. Never a hang.
	 */
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
				const parent = (c: number) => this.parentCol.data[c] as number;
				const cut = cycle.reduce((a, b) => (parent(b) > parent(a) ? b : a));
				const names = cycle.slice(0, MAX_NAMED).map((c) => `${this.ids[c]} (line ${this.line(c)})`);
				const more = cycle.length > MAX_NAMED ? ` → … (${cycle.length - MAX_NAMED} more)` : "";
				const reason = `parentId cycle: ${names.join(" → ")}${more} → ${this.ids[x]}`;
				this.repair(
					"parent_cycle",
					reason,
					this.line(cut),
					`cut: ${this.ids[cut]} starts the branch`,
				);
				this.parentCol.data[cut] = NONE;
			}
			for (const y of walk) state[y] = 2;
			walk.length = 0;
		}
	}

	private fold(entry: Entry, i: number): void {
		const data = "data" in entry ? entry.data : undefined;
		if (typeof data !== "object" || data === null) return;
		for (const [key, value] of Object.entries(data)) {
			if (value === null) delete this.metadata[key];
			else this.metadata[key] = value;
			this.metadataLines[key] = this.line(i);
		}
	}

	/** Broken structure: an error in strict mode, else a warning saying what was repaired. */
	private repair(code: ErrorCode, reason: string, line: number, salvage: string): void {
		if (this.strict) throw new ContextError(code, reason, { file: this.file, line });
		this.repaired = true;
		this.diagnostics.warn(code, `${reason}; ${salvage}`, line);
	}
}

/** An assistant message that says which model wrote it. */
function namesModel(entry: Entry): boolean {
	if (entry.type !== "message" || !("message" in entry)) return false;
	const m = entry.message as { role?: unknown; provider?: unknown; model?: unknown };
	return m.role === "assistant" && typeof m.provider === "string" && typeof m.model === "string";
}

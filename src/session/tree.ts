/**
 * The entry tree, indexed as entries arrive. Each entry gets an index (its
 * position in file order); parents, depths and "nearest ancestor of kind X"
 * pointers live in typed arrays, so the projection can find the latest
 * compaction, collapse summary, model and thinking level of any branch in
 * O(1) and walk only the part of the branch the context contains.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { Kind, type ParsedEntry } from "../log/parse.js";
import type { Entry, MessageEntry, SessionMetadata } from "../log/schema.js";

const NONE = -1;

/** Int32 columns, grown by doubling. */
class Column {
	data = new Int32Array(1024);
	grow(size: number): void {
		if (size <= this.data.length) return;
		let length = this.data.length * 2;
		while (length < size) length *= 2;
		const next = new Int32Array(length);
		next.set(this.data);
		this.data = next;
	}
}

export class SessionTree {
	readonly ids: string[] = [];
	readonly entries: Entry[] = [];
	readonly lines: number[] = [];
	readonly kinds: number[] = [];
	readonly byId = new Map<string, number>();
	/** The session-wide metadata fold (a prototype-less map: keys come from the log). */
	readonly metadata: SessionMetadata = Object.create(null);
	/** Structural findings (lenient mode only; otherwise they throw). */
	readonly diagnostics: Diagnostic[] = [];
	/** The default leaf: the last entry in file order that is not session-level. */
	leaf = NONE;

	private readonly parentCol = new Column();
	private readonly depthCol = new Column();
	/** Nearest ancestor-or-self: latest compaction, compact_context, model, thinking level. */
	private readonly compactionCol = new Column();
	private readonly collapseCol = new Column();
	private readonly modelCol = new Column();
	private readonly thinkingCol = new Column();
	/** Entries whose parent was not known when they were added. */
	private unresolved: number[] = [];

	constructor(
		readonly file: string,
		private readonly lenient = false,
	) {}

	get size(): number {
		return this.ids.length;
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

	/** Adds one parsed entry. Call {@link finish} once the batch is in. */
	add({ entry, kind, line }: ParsedEntry): void {
		const first = this.byId.get(entry.id);
		if (first !== undefined) {
			const reason = `duplicate id ${JSON.stringify(entry.id)} on line ${line} (first on line ${this.lines[first]})`;
			this.structural("duplicate_id", reason, line, "the later line skipped");
			return;
		}
		const i = this.ids.length;
		// Looked up before this entry is known, so a self-reference is caught as a cycle.
		const parent = entry.parentId === null ? NONE : this.byId.get(entry.parentId);
		const size = i + 1;
		for (const col of this.columns()) col.grow(size);
		this.ids.push(entry.id);
		this.entries.push(entry);
		this.lines.push(line);
		this.kinds.push(kind);
		this.byId.set(entry.id, i);

		if (parent === undefined) {
			this.parentCol.data[i] = NONE;
			this.unresolved.push(i);
		} else {
			this.parentCol.data[i] = parent;
			this.inherit(i);
		}
		if (kind === Kind.Metadata) this.fold(entry);
		else if (kind !== Kind.SessionLevel) this.leaf = i;
	}

	/** Resolves forward parent references; rejects unknown parents and cycles. */
	finish(): void {
		if (this.unresolved.length === 0) return;
		const pending = this.unresolved;
		this.unresolved = [];
		for (const i of pending) {
			const parentId = this.entries[i]?.parentId as string;
			const parent = this.byId.get(parentId);
			if (parent === undefined) {
				const reason = `parentId ${JSON.stringify(parentId)} names no entry`;
				this.structural("unknown_parent", reason, this.lines[i] as number, "kept as a root");
				continue;
			}
			this.parentCol.data[i] = parent;
		}
		this.breakCycles();
		this.inheritAll();
	}

	private columns(): Column[] {
		return [
			this.parentCol,
			this.depthCol,
			this.compactionCol,
			this.collapseCol,
			this.modelCol,
			this.thinkingCol,
		];
	}

	private inherit(i: number): void {
		const p = this.parentCol.data[i] as number;
		const kind = this.kinds[i];
		const from = (col: Column) => (p === NONE ? NONE : (col.data[p] as number));
		this.depthCol.data[i] = p === NONE ? 0 : (this.depthCol.data[p] as number) + 1;
		this.compactionCol.data[i] = kind === Kind.Compaction ? i : from(this.compactionCol);
		this.collapseCol.data[i] = kind === Kind.CompactContext ? i : from(this.collapseCol);
		this.thinkingCol.data[i] = kind === Kind.ThinkingLevelChange ? i : from(this.thinkingCol);
		const setsModel =
			kind === Kind.ModelChange ||
			(kind === Kind.Message && namesModel(this.entries[i] as MessageEntry));
		this.modelCol.data[i] = setsModel ? i : from(this.modelCol);
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
				const names = cycle.map((c) => `${this.ids[c]} (line ${this.lines[c]})`);
				const reason = `parentId cycle: ${names.join(" → ")} → ${this.ids[x]}`;
				this.structural(
					"parent_cycle",
					reason,
					this.lines[x] as number,
					`cut: ${this.ids[x]} kept as a root`,
				);
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

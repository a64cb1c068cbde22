/**
 * Projecting the active branch into messages. Walks only the part of the
 * branch the context contains (from the leaf up to the latest compaction's
 * first kept entry, or to the root), iteratively and in linear time.
 *
 * Given the projection of an earlier load of the same tree, and a leaf that
 * descends from its leaf under the same compaction and collapse summary, it
 * extends that one instead: it visits the new entries only, builds their
 * messages only, and shares the earlier messages (see ./branch-list.ts). A
 * turn of a session kept open so costs what the turn added, whatever the
 * session's length.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { isObject, Kind } from "../log/kinds.js";
import type { Header } from "../log/schema.js";
import { BranchList, BranchPrefix } from "./branch-list.js";
import {
	fields,
	keptTail,
	type ModelRef,
	modelOf,
	PRODUCES_MESSAGE,
	toMessage,
} from "./entry-messages.js";
import { freezeMessage } from "./freeze.js";
import { type ContextMessage, toMillis } from "./messages.js";
import { NONE, type SessionTree } from "./tree.js";

export type { ModelRef } from "./entry-messages.js";

/** Why a projection is not a continuation of the one it was given: another branch, or a new summary. */
export type Restart = "branch" | "compaction";

/** The work one projection did: what a reload's cost is counted in. */
export interface ProjectionStats {
	/** Entries of the branch looked at. */
	visited: number;
	/** Messages built (the ones shared with the earlier projection are not). */
	built: number;
}

/** The compact summary framed for the payload, and what framing it warned about. */
export interface FramedSummary {
	text: string;
	diagnostics: Diagnostic[];
}

/** What a later projection of the same tree extends. */
interface BranchState {
	tree: SessionTree;
	leaf: number;
	compaction: number;
	collapse: number;
	prefix: BranchPrefix;
}

export class Projection {
	constructor(
		/** The leaf the branch ends at (undefined for a log with no tree entries). */
		readonly leafId: string | undefined,
		readonly model: ModelRef | undefined,
		readonly thinkingLevel: string | undefined,
		readonly diagnostics: Diagnostic[],
		/** How many leading messages are those of the projection extended (0: projected afresh). */
		readonly shared: number,
		/**
		 * Why the branch is not the one of the projection given to extend (a
		 * leaf elsewhere, a new compaction or collapse summary); undefined when
		 * it grew from it (or none was given). A lean store's projection is
		 * built afresh each time, yet grows the same branch.
		 */
		readonly restart: Restart | undefined,
		readonly stats: ProjectionStats,
		/** @internal */
		readonly branch: BranchState,
	) {}

	/** The messages, frozen (built as an array on first read). */
	get messages(): readonly ContextMessage[] {
		return this.branch.prefix.messages;
	}
	/** The id of the entry each message comes from, index for index. */
	get entryIds(): readonly string[] {
		return this.branch.prefix.entryIds;
	}
	/** The messages without building their array: `message(i)`, `entryId(i)`, `length`. */
	get prefix(): BranchPrefix {
		return this.branch.prefix;
	}
}

/**
 * Projects the branch ending at `leafId` (default: the tree's leaf).
 * `frameSummary` turns the stored compact summary into the payload text
 * (components parsed, capped and normalised). `previous`: an earlier
 * projection of this tree with the same `frameSummary`, to extend when the
 * branch grew from its leaf. `freeze` false leaves the messages as they are,
 * for a caller that uses them once and never shares them.
 */
export function projectBranch(
	tree: SessionTree,
	header: Header,
	frameSummary: (summary: string, line: number) => FramedSummary,
	leafId?: string,
	previous?: Projection,
	freeze = true,
): Projection {
	const leaf = leafId === undefined ? tree.leaf : leafIndex(tree, leafId);
	const from = previous === undefined ? undefined : descent(tree, leaf, previous);
	const restart = typeof from === "string" ? from : undefined;
	// A lean store holds next to nothing: each load reads the context back, and checks it is unchanged.
	const added = Array.isArray(from) && !tree.entries.lean ? from : undefined;
	const base = added === undefined ? undefined : (previous as Projection);
	const compaction = leaf === NONE ? NONE : tree.latestCompaction(leaf);
	const collapse = leaf === NONE ? NONE : tree.latestCollapse(leaf);
	const diagnostics: Diagnostic[] = base === undefined ? [] : [...base.diagnostics];
	const stats: ProjectionStats = { visited: 0, built: 0 };
	const path: number[] = added ?? [];
	let kept: number[] = [];
	if (base === undefined && leaf !== NONE) {
		for (let x = leaf; x !== compaction; x = tree.parent(x)) path.push(x);
		path.reverse();
		if (compaction !== NONE) kept = keptTail(tree, compaction, diagnostics);
		stats.visited = path.length + kept.length + (compaction === NONE ? 0 : 1);
	} else {
		stats.visited = path.length;
	}
	// Read back, in one go, whatever of the context the log's store has let go.
	if (tree.entries.everLetGo) {
		tree.entries.materialize([...kept, ...path].filter((i) => PRODUCES_MESSAGE.has(tree.kind(i))));
	}
	const list =
		base === undefined ? new BranchList() : base.prefix.list.growableAt(base.prefix.length);
	const start = list.length;
	const millis = (i: number): number | null => {
		const timestamp = String(fields(tree.entry(i)).timestamp);
		const ms = toMillis(timestamp);
		if (ms === null) {
			diagnostics.push({
				severity: "warning",
				code: "bad_timestamp",
				message: `timestamp ${JSON.stringify(timestamp)} is not ISO 8601: the message's timestamp is null`,
				file: tree.file,
				line: tree.line(i),
			});
		}
		return ms;
	};
	const collapseMessage = (): ContextMessage => {
		const data = fields(tree.entry(collapse)).data;
		const summary = isObject(data) ? String(data.summary) : "";
		const framed = frameSummary(summary, tree.line(collapse));
		diagnostics.push(...framed.diagnostics);
		return { type: "custom", role: "collapse_context", payload: { summary: framed.text } };
	};
	// Only a fresh projection meets the collapse summary: an extension keeps the one it shares.
	let collapseInjected = base !== undefined;
	const append = (i: number): void => {
		const kind = tree.kind(i);
		if (kind === Kind.Message) {
			// Most entries: the stored message as it is, with no closure made for it.
			list.push(fields(tree.entry(i)).message as ContextMessage, tree.idAt(i));
			return;
		}
		const message = toMessage(tree.entry(i), kind, i === collapse, () => millis(i));
		if (message === "collapse") {
			list.push(collapseMessage(), tree.idAt(i));
			collapseInjected = true;
		} else if (message !== undefined) {
			list.push(message, tree.idAt(i));
		}
	};
	if (base === undefined && compaction !== NONE) {
		const entry = fields(tree.entry(compaction));
		list.push(
			{
				role: "compactionSummary",
				summary: String(entry.summary),
				...(typeof entry.tokensBefore === "number" ? { tokensBefore: entry.tokensBefore } : {}),
				timestamp: millis(compaction),
			},
			tree.idAt(compaction),
		);
	}
	for (const i of kept) append(i);
	for (const i of path) append(i);
	// A collapse summary older than the kept tail still reaches the context, first.
	if (collapse !== NONE && !collapseInjected) list.unshift(collapseMessage(), tree.idAt(collapse));
	if (freeze)
		for (let k = start; k < list.length; k++) freezeMessage(list.messages[k] as ContextMessage);
	stats.built = list.length - start;

	const modelAt = leaf === NONE ? NONE : tree.latestModel(leaf);
	const thinkingAt = leaf === NONE ? NONE : tree.latestThinkingLevel(leaf);
	const thinking = thinkingAt === NONE ? undefined : fields(tree.entry(thinkingAt)).thinkingLevel;
	const fallbackModel =
		typeof header.provider === "string" && typeof header.modelId === "string"
			? { provider: header.provider, modelId: header.modelId }
			: undefined;
	return new Projection(
		leaf === NONE ? undefined : tree.idAt(leaf),
		modelAt === NONE ? fallbackModel : modelOf(tree.entry(modelAt)),
		typeof thinking === "string"
			? thinking
			: typeof header.thinkingLevel === "string"
				? header.thinkingLevel
				: undefined,
		diagnostics,
		start,
		restart,
		stats,
		{ tree, leaf, compaction, collapse, prefix: prefixOf(list, base) },
	);
}

/** The prefix of `list` this projection sees: the extended one's when nothing was added (its arrays, if built, serve again). */
function prefixOf(list: BranchList, base: Projection | undefined): BranchPrefix {
	const same =
		base !== undefined && base.prefix.list === list && base.prefix.length === list.length;
	return same ? base.prefix : new BranchPrefix(list, list.length);
}

function leafIndex(tree: SessionTree, leafId: string): number {
	const found = tree.indexOf(leafId);
	if (found === undefined) {
		throw new ContextError("unknown_leaf", `no entry has the id ${JSON.stringify(leafId)}`, {
			file: tree.file,
		});
	}
	return found;
}

/**
 * How the branch ending at `leaf` stands to `previous`'s: the entries from
 * that leaf (excluded) down to `leaf`, in branch order, when `leaf` descends
 * from it under the same compaction and collapse summary; else why it is
 * another branch. The same tree is assumed (its owner reads a rewired tree
 * afresh, so an earlier entry never changes under a kept projection).
 */
function descent(tree: SessionTree, leaf: number, previous: Projection): number[] | Restart {
	const base = previous.branch;
	if (base.tree !== tree || leaf === NONE || base.leaf === NONE) return "branch";
	if (tree.latestCompaction(leaf) !== base.compaction) return "compaction";
	if (tree.latestCollapse(leaf) !== base.collapse) return "compaction";
	const steps = tree.depth(leaf) - tree.depth(base.leaf);
	if (steps < 0) return "branch";
	const added: number[] = [];
	let x = leaf;
	for (let k = 0; k < steps; k++) {
		added.push(x);
		x = tree.parent(x);
	}
	return x === base.leaf ? added.reverse() : "branch";
}

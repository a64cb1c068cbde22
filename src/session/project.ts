/**
 * Projecting the active branch into messages. Walks only the part of the
 * branch the context contains (from the leaf up to the latest compaction's
 * first kept entry, or to the root), iteratively and in linear time.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { isObject, Kind } from "../log/kinds.js";
import type { AgentMessage, Entry, Header } from "../log/schema.js";
import { freezeMessage } from "./freeze.js";
import { type ContextMessage, toMillis } from "./messages.js";
import { NONE, type SessionTree } from "./tree.js";

const PRODUCES_MESSAGE = new Set<number>([
	Kind.Message,
	Kind.BranchSummary,
	Kind.CustomMessage,
	Kind.CompactContext,
]);

/** The model last seen on the branch: its provider and id. */
export interface ModelRef {
	provider: string;
	modelId: string;
}

export interface Projection {
	/** The leaf the branch ends at (undefined for a log with no tree entries). */
	leafId: string | undefined;
	messages: ContextMessage[];
	/** The id of the entry each message comes from, index for index. */
	entryIds: string[];
	model: ModelRef | undefined;
	thinkingLevel: string | undefined;
	diagnostics: Diagnostic[];
}

/**
 * Projects the branch ending at `leafId` (default: the tree's leaf).
 * `frameSummary` turns the stored compact summary into the payload text
 * (components parsed, capped and normalised).
 */
export function projectBranch(
	tree: SessionTree,
	header: Header,
	frameSummary: (summary: string, line: number) => string,
	leafId?: string,
): Projection {
	const diagnostics: Diagnostic[] = [];
	let leaf = tree.leaf;
	if (leafId !== undefined) {
		const found = tree.indexOf(leafId);
		if (found === undefined) {
			throw new ContextError("unknown_leaf", `no entry has the id ${JSON.stringify(leafId)}`, {
				file: tree.file,
			});
		}
		leaf = found;
	}
	const fallbackModel =
		typeof header.provider === "string" && typeof header.modelId === "string"
			? { provider: header.provider, modelId: header.modelId }
			: undefined;
	const fallbackThinking =
		typeof header.thinkingLevel === "string" ? header.thinkingLevel : undefined;
	if (leaf === NONE) {
		return {
			leafId: undefined,
			messages: [],
			entryIds: [],
			model: fallbackModel,
			thinkingLevel: fallbackThinking,
			diagnostics,
		};
	}

	const compaction = tree.latestCompaction(leaf);
	const collapse = tree.latestCollapse(leaf);
	// Indices of the entries in context, leaf first (reversed below).
	const path: number[] = [];
	let stop = NONE;
	if (compaction !== NONE) stop = compaction;
	for (let x = leaf; x !== stop; x = tree.parent(x)) path.push(x);
	path.reverse();

	let kept: number[] = [];
	if (compaction !== NONE) kept = keptTail(tree, compaction, diagnostics);

	// Read back, in one go, whatever of the context the log's store has let go.
	if (tree.entries.everLetGo) {
		tree.entries.materialize([...kept, ...path].filter((i) => PRODUCES_MESSAGE.has(tree.kind(i))));
	}
	const messages: ContextMessage[] = [];
	const entryIds: string[] = [];
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
		return {
			type: "custom",
			role: "collapse_context",
			payload: { summary: frameSummary(summary, tree.line(collapse)) },
		};
	};
	let collapseInjected = false;
	const append = (i: number): void => {
		const kind = tree.kind(i);
		if (kind === Kind.Message) {
			messages.push(fields(tree.entry(i)).message as ContextMessage);
			entryIds.push(tree.idAt(i));
			return;
		}
		const message = toMessage(tree.entry(i), kind, i === collapse, () => millis(i));
		if (message === "collapse") {
			messages.push(collapseMessage());
			entryIds.push(tree.idAt(i));
			collapseInjected = true;
		} else if (message !== undefined) {
			messages.push(message);
			entryIds.push(tree.idAt(i));
		}
	};
	if (compaction !== NONE) {
		const entry = fields(tree.entry(compaction));
		messages.push({
			role: "compactionSummary",
			summary: String(entry.summary),
			...(typeof entry.tokensBefore === "number" ? { tokensBefore: entry.tokensBefore } : {}),
			timestamp: millis(compaction),
		});
		entryIds.push(tree.idAt(compaction));
	}
	for (const i of kept) append(i);
	for (const i of path) append(i);
	// A collapse summary older than the kept tail still reaches the context, first.
	if (collapse !== NONE && !collapseInjected) {
		messages.unshift(collapseMessage());
		entryIds.unshift(tree.idAt(collapse));
	}
	for (const message of messages) freezeMessage(message);

	const modelAt = tree.latestModel(leaf);
	const thinkingAt = tree.latestThinkingLevel(leaf);
	const thinking = thinkingAt === NONE ? undefined : fields(tree.entry(thinkingAt)).thinkingLevel;
	return {
		leafId: tree.idAt(leaf),
		messages,
		entryIds,
		model: modelAt === NONE ? fallbackModel : modelOf(tree.entry(modelAt)),
		thinkingLevel: typeof thinking === "string" ? thinking : fallbackThinking,
		diagnostics,
	};
}

type CustomMessage = Extract<AgentMessage, { role: "custom" }>;

/** An entry's fields, to read those its (validated) kind guarantees. */
function fields(entry: Entry): Record<string, unknown> {
	return entry;
}

/** The entries from the compaction's first kept entry up to (not including) it. */
function keptTail(tree: SessionTree, compaction: number, diagnostics: Diagnostic[]): number[] {
	const firstKeptId = fields(tree.entry(compaction)).firstKeptEntryId;
	const first = typeof firstKeptId === "string" ? tree.indexOf(firstKeptId) : undefined;
	const kept: number[] = [];
	if (first !== undefined && tree.depth(first) < tree.depth(compaction)) {
		let x = tree.parent(compaction);
		while (tree.depth(x) > tree.depth(first)) {
			kept.push(x);
			x = tree.parent(x);
		}
		if (x === first) {
			kept.push(x);
			return kept.reverse();
		}
	}
	if (first !== compaction) {
		diagnostics.push({
			severity: "warning",
			code: "first_kept_not_on_branch",
			message: `compaction's firstKeptEntryId ${JSON.stringify(firstKeptId ?? null)} is not on the branch; only its summary and what follows it are in the context`,
			file: tree.file,
			line: tree.line(compaction),
		});
	}
	return [];
}

function toMessage(
	entry: Entry,
	kind: number,
	isLatestCollapse: boolean,
	millis: () => number | null,
): ContextMessage | "collapse" | undefined {
	const e = fields(entry);
	switch (kind) {
		case Kind.Message:
			return e.message as ContextMessage;
		case Kind.BranchSummary: {
			if (e.summary === "") return undefined;
			return {
				role: "branchSummary",
				summary: String(e.summary),
				...(typeof e.fromId === "string" ? { fromId: e.fromId } : {}),
				timestamp: millis(),
			};
		}
		case Kind.CustomMessage: {
			// As pi builds it; a customType missing from the entry stays missing.
			const message: CustomMessage = {
				role: "custom",
				...(typeof e.customType === "string" ? { customType: e.customType } : {}),
				content: e.content as CustomMessage["content"],
				display: typeof e.display === "boolean" ? e.display : true,
				...(e.details === undefined ? {} : { details: e.details }),
				timestamp: millis(),
			};
			return message;
		}
		case Kind.CompactContext:
			return isLatestCollapse ? "collapse" : undefined;
		default:
			return undefined;
	}
}

function modelOf(entry: Entry): ModelRef | undefined {
	const e = fields(entry);
	if (e.type === "model_change")
		return { provider: String(e.provider), modelId: String(e.modelId) };
	const message = isObject(e.message) ? e.message : {};
	if (typeof message.provider === "string" && typeof message.model === "string") {
		return { provider: message.provider, modelId: message.model };
	}
	return undefined;
}

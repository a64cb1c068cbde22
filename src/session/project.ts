/**
 * Projecting the active branch into messages. Walks only the part of the
 * branch the context contains (from the leaf up to the latest compaction's
 * first kept entry, or to the root), iteratively and in linear time.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { Kind } from "../log/parse.js";
import type {
	AgentMessage,
	CompactionEntry,
	CustomEntry,
	Entry,
	Header,
	MessageEntry,
} from "../log/schema.js";
import { type ContextMessage, toMillis } from "./messages.js";
import type { SessionTree } from "./tree.js";

const NONE = -1;
const PRODUCES_MESSAGE = new Set<number>([
	Kind.Message,
	Kind.BranchSummary,
	Kind.CustomMessage,
	Kind.CompactContext,
]);

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
		const found = tree.byId.get(leafId);
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

	// Read back, in one go, whatever of the context the tree has let go.
	if (tree.everLetGo) {
		tree.materialize([...kept, ...path].filter((i) => PRODUCES_MESSAGE.has(tree.kind(i))));
	}
	const messages: ContextMessage[] = [];
	const entryIds: string[] = [];
	const collapseMessage = (): ContextMessage => {
		const summary = ((tree.entry(collapse) as CustomEntry).data as { summary: string }).summary;
		return {
			type: "custom",
			role: "collapse_context",
			payload: { summary: frameSummary(summary, tree.line(collapse)) },
		};
	};
	let collapseInjected = false;
	const append = (i: number): void => {
		const message = toMessage(tree.entry(i) as Entry, tree.kind(i), i === collapse);
		if (message === "collapse") {
			messages.push(collapseMessage());
			entryIds.push(tree.ids[i] as string);
			collapseInjected = true;
		} else if (message !== undefined) {
			messages.push(message);
			entryIds.push(tree.ids[i] as string);
		}
	};
	if (compaction !== NONE) {
		const entry = tree.entry(compaction) as CompactionEntry;
		messages.push({
			role: "compactionSummary",
			summary: entry.summary,
			...(entry.tokensBefore === undefined ? {} : { tokensBefore: entry.tokensBefore }),
			timestamp: toMillis(entry.timestamp),
		});
		entryIds.push(tree.ids[compaction] as string);
	}
	for (const i of kept) append(i);
	for (const i of path) append(i);
	// A collapse summary older than the kept tail still reaches the context, first.
	if (collapse !== NONE && !collapseInjected) {
		messages.unshift(collapseMessage());
		entryIds.unshift(tree.ids[collapse] as string);
	}

	const modelAt = tree.latestModel(leaf);
	const thinkingAt = tree.latestThinkingLevel(leaf);
	return {
		leafId: tree.ids[leaf],
		messages,
		entryIds,
		model: modelAt === NONE ? fallbackModel : modelOf(tree.entry(modelAt) as Entry),
		thinkingLevel:
			thinkingAt === NONE
				? fallbackThinking
				: (tree.entry(thinkingAt) as { thinkingLevel: string }).thinkingLevel,
		diagnostics,
	};
}

/** The entries from the compaction's first kept entry up to (not including) it. */
function keptTail(tree: SessionTree, compaction: number, diagnostics: Diagnostic[]): number[] {
	const entry = tree.entry(compaction) as CompactionEntry;
	const firstKeptId = entry.firstKeptEntryId;
	const first = firstKeptId === undefined ? undefined : tree.byId.get(firstKeptId);
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
): ContextMessage | "collapse" | undefined {
	switch (kind) {
		case Kind.Message:
			return (entry as MessageEntry).message as AgentMessage;
		case Kind.BranchSummary: {
			const e = entry as Entry & { summary: string; fromId?: string };
			if (e.summary === "") return undefined;
			return {
				role: "branchSummary",
				summary: e.summary,
				...(e.fromId === undefined ? {} : { fromId: e.fromId }),
				timestamp: toMillis(e.timestamp),
			};
		}
		case Kind.CustomMessage: {
			const e = entry as Entry & {
				customType: string;
				content: unknown;
				display?: boolean;
				details?: unknown;
			};
			return {
				role: "custom",
				customType: e.customType,
				content: e.content as string,
				display: e.display ?? true,
				...(e.details === undefined ? {} : { details: e.details }),
				timestamp: toMillis(e.timestamp),
			} as AgentMessage;
		}
		case Kind.CompactContext:
			return isLatestCollapse ? "collapse" : undefined;
		default:
			return undefined;
	}
}

function modelOf(entry: Entry): ModelRef | undefined {
	if (entry.type === "model_change") {
		const e = entry as { provider: string; modelId: string };
		return { provider: e.provider, modelId: e.modelId };
	}
	const message = (entry as MessageEntry).message as { provider?: unknown; model?: unknown };
	if (typeof message.provider === "string" && typeof message.model === "string") {
		return { provider: message.provider, modelId: message.model };
	}
	return undefined;
}

/**
 * What one entry of the branch contributes to the context: the message it
 * stands for (stored, or made from a branch summary or a custom_message),
 * the model it names, and where a compaction's kept tail begins. Pure
 * functions of the tree, shared by a fresh projection and by one that
 * extends an earlier one.
 */
import type { Diagnostic } from "../errors.js";
import { isObject, Kind } from "../log/kinds.js";
import type { AgentMessage, Entry } from "../log/schema.js";
import type { ContextMessage } from "./messages.js";
import { NONE, type SessionTree } from "./tree.js";

/** The kinds of entry that may produce a message (the others never do). */
export const PRODUCES_MESSAGE = new Set<number>([
	Kind.Message,
	Kind.BranchSummary,
	Kind.CustomMessage,
	Kind.CompactContext,
]);

type CustomMessage = Extract<AgentMessage, { role: "custom" }>;

/** An entry's fields, to read those its (validated) kind guarantees. */
export function fields(entry: Entry): Record<string, unknown> {
	return entry;
}

/** The entries from the compaction's first kept entry up to (not including) it. */
export function keptTail(
	tree: SessionTree,
	compaction: number,
	diagnostics: Diagnostic[],
): number[] {
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
	// A compaction that names itself keeps nothing before it, as the importers write one: no warning.
	if (first === compaction) return [];
	diagnostics.push({
		severity: "warning",
		code: "first_kept_not_on_branch",
		message: `compaction's ${whyNoneKept(tree, compaction, first)}; only its summary and what follows it are in the context`,
		file: tree.file,
		line: tree.line(compaction),
	});
	return [];
}

/** Why a compaction keeps nothing before it: what its first kept entry is, or is not. */
function whyNoneKept(tree: SessionTree, compaction: number, first: number | undefined): string {
	const e = fields(tree.entry(compaction));
	const id = e.firstKeptEntryId;
	if (first !== undefined) {
		let x = first;
		while (x !== NONE && x !== compaction) x = tree.parent(x);
		return x === compaction
			? `firstKeptEntryId ${JSON.stringify(id)} comes after the compaction, on its branch`
			: `firstKeptEntryId ${JSON.stringify(id)} is not on the branch before it`;
	}
	if (typeof id === "string") return `firstKeptEntryId ${JSON.stringify(id)} names no entry`;
	const index = e.firstKeptEntryIndex;
	if (index !== undefined)
		return `firstKeptEntryIndex ${JSON.stringify(index)} names no entry before it (version 1 counts the parsed lines, the header as 0)`;
	return "firstKeptEntryId is missing";
}

/**
 * The message an entry of `kind` stands for: "collapse" for the latest
 * collapse summary (the caller frames it), undefined for none.
 */
export function toMessage(
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

/** The model last seen on the branch: its provider and id. */
export interface ModelRef {
	provider: string;
	modelId: string;
}

/** The model a model_change entry or an assistant message names. */
export function modelOf(entry: Entry): ModelRef | undefined {
	const e = fields(entry);
	if (e.type === "model_change")
		return { provider: String(e.provider), modelId: String(e.modelId) };
	const message = isObject(e.message) ? e.message : {};
	if (typeof message.provider === "string" && typeof message.model === "string") {
		return { provider: message.provider, modelId: message.model };
	}
	return undefined;
}

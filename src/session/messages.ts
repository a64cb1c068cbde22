/**
 * The messages of a context bundle: the log's AgentMessages as stored, plus
 * the messages the projection makes from compactions, branch summaries,
 * custom_message entries and the collapse summary. Plain types: nothing here
 * loads at runtime but {@link toMillis}.
 */
import type { AgentMessage } from "../log/schema.js";

/** The summary of an in-session compaction, first on the branch after it. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore?: number;
	/** Epoch milliseconds; null when the entry's timestamp is not ISO 8601 (with a warning). */
	timestamp: number | null;
}

/** The summary of a branch the conversation came back from. */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId?: string;
	timestamp: number | null;
}

/** The compact summary of a collapsed session, injected exactly once. */
export interface CollapseContextMessage {
	type: "custom";
	role: "collapse_context";
	payload: { summary: string };
}

/** A bundle's message: an agent message as stored, or one of the summary messages the projection makes. */
export type ContextMessage =
	| AgentMessage
	| CompactionSummaryMessage
	| BranchSummaryMessage
	| CollapseContextMessage;

/** A provider-ready message: what `convertToLlm` returns. */
export interface LlmMessage {
	role: "user" | "assistant" | "toolResult";
	content: unknown;
	[key: string]: unknown;
}

/** An ISO 8601 date and time (what pi writes: `new Date().toISOString()`), with an offset or Z. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO 8601 timestamp as epoch milliseconds (as pi does for derived
 * messages), or null for one that is not ISO 8601 (the caller warns).
 */
export function toMillis(timestamp: string): number | null {
	if (!ISO_8601.test(timestamp)) return null;
	const ms = Date.parse(timestamp);
	return Number.isNaN(ms) ? null : ms;
}

/**
 * The messages of a context bundle: the log's AgentMessages as stored, plus
 * the messages the projection makes from compactions, branch summaries,
 * custom_message entries and the collapse summary.
 */
import { z } from "zod";
import { AgentMessageSchema } from "../log/schema.js";

export const CompactionSummaryMessageSchema = z.object({
	role: z.literal("compactionSummary"),
	summary: z.string(),
	tokensBefore: z.number().optional(),
	timestamp: z.number(),
});
export type CompactionSummaryMessage = z.infer<typeof CompactionSummaryMessageSchema>;

export const BranchSummaryMessageSchema = z.object({
	role: z.literal("branchSummary"),
	summary: z.string(),
	fromId: z.string().optional(),
	timestamp: z.number(),
});
export type BranchSummaryMessage = z.infer<typeof BranchSummaryMessageSchema>;

/** The compact summary of a collapsed session, injected exactly once. */
export const CollapseContextMessageSchema = z.object({
	type: z.literal("custom"),
	role: z.literal("collapse_context"),
	payload: z.object({ summary: z.string() }),
});
export type CollapseContextMessage = z.infer<typeof CollapseContextMessageSchema>;

export const ContextMessageSchema = z.union([
	AgentMessageSchema,
	CompactionSummaryMessageSchema,
	BranchSummaryMessageSchema,
	CollapseContextMessageSchema,
]);
export type ContextMessage = z.infer<typeof ContextMessageSchema>;

/** A provider-ready message: what {@link convertToLlm} returns. */
export const LlmMessageSchema = z.looseObject({
	role: z.enum(["user", "assistant", "toolResult"]),
	content: z.unknown(),
});
export type LlmMessage = z.infer<typeof LlmMessageSchema>;

/** An ISO 8601 timestamp as epoch milliseconds (as pi does for derived messages). */
export function toMillis(timestamp: string): number {
	return Date.parse(timestamp);
}

/**
 * Virtualized tool results, as data: the policy a set declares in its
 * `tool-result-stub` front-matter, and the view that template is rendered
 * with. The render path uses the inferred types only (no zod at run time).
 */
import { z } from "zod";

/**
 * `tool-result-stub` only: when a tool result reaches the model as the stub
 * instead of whole. Plain data, carried as is into the precompiled set.
 */
export const VirtualizePolicySchema = z.strictObject({
	/** A result larger than this, in `unit`, becomes a stub. */
	threshold: z.number().int().positive(),
	/** `tokens`: o200k tokens; `chars`: characters (no tokenizer). */
	unit: z.enum(["tokens", "chars"]),
	/** Whether images count toward the size, `imageSize` units each. */
	countImages: z.boolean(),
	imageSize: z.number().int().nonnegative(),
	/** Images of at most this many base64 characters stay beside the stub; larger ones are left out and counted. */
	keepImagesUpTo: z.number().int().nonnegative(),
	/** The excerpts the stub shows, in characters: the start and the end of the text. */
	head: z.number().int().nonnegative(),
	tail: z.number().int().nonnegative(),
});

/** The policy a template set declares (front-matter of `tool-result-stub`). */
export type VirtualizePolicy = z.infer<typeof VirtualizePolicySchema>;

/**
 * `tool-result-stub`: what the model gets in place of a tool result over the
 * set's threshold. Every string is session text, neutralised.
 */
export const ToolResultStubViewSchema = z.object({
	entryId: z
		.string()
		.describe("The log entry that holds the whole result: what `session_tool_result` reads back."),
	toolCallId: z.string().describe("The call the result answers (one line)."),
	toolName: z.string().describe("The tool that was called (one line)."),
	isError: z.boolean().describe("Whether the call failed (the result is its error output)."),
	chars: z.number().describe("Characters of the result's text."),
	lines: z.number().describe("Lines of the result's text."),
	bytes: z.number().describe("UTF-8 bytes of the result's text."),
	size: z
		.number()
		.describe("Its size in the policy's unit (tokens or chars), images included when they count."),
	unit: z.enum(["tokens", "chars"]).describe("The unit of `size`: the policy's."),
	head: z
		.string()
		.describe("The start of the text, of bounded size, cut at a line break when one is near."),
	tail: z
		.string()
		.describe("The end of the text, of bounded size (empty when the head holds it all)."),
	omittedChars: z.number().describe("Characters between the two excerpts."),
	imagesKept: z.number().describe("Images kept beside the stub."),
	imagesOmitted: z.number().describe("Images left out (too large to keep)."),
});

/** What a stub template sees. */
export type ToolResultStubView = z.infer<typeof ToolResultStubViewSchema>;

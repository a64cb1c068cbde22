/** Tool calls and results for session logs written by tests, and a set that virtualizes small results. */

import { entry, HEADER, user } from "./session.js";
import { bundledStub, STUB_FILE, templateSet, withPolicy } from "./template-sets.js";

/** An assistant message that calls tool `name` with the call id `callId`. */
export const toolCall = (id: string, parentId: string | null, callId: string, name = "read") =>
	entry(id, parentId, {
		type: "message",
		message: {
			role: "assistant",
			content: [{ type: "toolCall", id: callId, name, arguments: { path: "file.ts" } }],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-test",
			usage: {},
			stopReason: "toolUse",
			timestamp: 2,
		},
	});

/** The result of call `callId`: `content` is a text or content blocks. */
export const toolResult = (
	id: string,
	parentId: string | null,
	callId: string,
	content: string | unknown[],
	options: { isError?: boolean; name?: string } = {},
) =>
	entry(id, parentId, {
		type: "message",
		message: {
			role: "toolResult",
			toolCallId: callId,
			toolName: options.name ?? "read",
			content: typeof content === "string" ? [{ type: "text", text: content }] : content,
			isError: options.isError === true,
			timestamp: 3,
		},
	});

/** A policy small enough for tests: 50 tokens, short excerpts, images of up to 100 base64 characters kept. */
export const SMALL_POLICY = {
	threshold: 50,
	unit: "tokens",
	countImages: false,
	imageSize: 1000,
	keepImagesUpTo: 100,
	head: 40,
	tail: 20,
} as const;

/** A templates folder: the newest bundled set with its stub's policy replaced by `policy`. */
export function virtualizingSet(
	policy: Partial<Record<keyof typeof SMALL_POLICY, number | boolean | string>> = {},
): string {
	return templateSet({ [STUB_FILE]: withPolicy(bundledStub(), { ...SMALL_POLICY, ...policy }) });
}

/** A text of `lines` numbered lines: well over {@link SMALL_POLICY}'s threshold from 10 lines on. */
export function longText(lines: number, word = "line"): string {
	return Array.from({ length: lines }, (_, i) => `${word} ${i + 1} of the output`).join("\n");
}

/**
 * A session's start: a header, a user's question, a large read (over
 * {@link SMALL_POLICY}'s threshold: a stub) and a small one (kept as it
 * is), their results at messages 2 and 4; the last entry is `r2`.
 */
export function twoReads() {
	return [
		HEADER,
		user("u1", null, "go"),
		toolCall("a1", "u1", "c1"),
		toolResult("r1", "a1", "c1", longText(40)),
		toolCall("a2", "r1", "c2"),
		toolResult("r2", "a2", "c2", "ok"),
	];
}

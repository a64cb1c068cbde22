/**
 * A small agent session for the eval tests: a user asks, the assistant
 * reads a file (a tool call and its result, one with an image), then
 * answers in text, then is asked again and edits. Four model calls
 * (indices 0 to 3) whose recorded moves are known.
 */
import { entry, HEADER, metadata, writeLog } from "./session.js";

const message = (id: string, parentId: string | null, m: Record<string, unknown>) =>
	entry(id, parentId, { type: "message", message: { timestamp: 1, ...m } });

const assistant = (id: string, parentId: string, content: unknown[]) =>
	message(id, parentId, {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
		stopReason: "stop",
	});

/** The entries of the session (the header first). */
export function agentSessionLines(): unknown[] {
	return [
		HEADER,
		metadata("m0", null, { tools: ["read", "edit"] }),
		message("u1", "m0", { role: "user", content: "What does a.txt say?" }),
		assistant("a1", "u1", [
			{ type: "thinking", thinking: "I should read it." },
			{ type: "toolCall", id: "call.1", name: "read", arguments: { path: "a.txt" } },
		]),
		message("r1", "a1", {
			role: "toolResult",
			toolCallId: "call.1",
			toolName: "read",
			content: [
				{ type: "text", text: "hello" },
				{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
			],
			isError: false,
		}),
		assistant("a2", "r1", [{ type: "text", text: "It says hello." }]),
		message("u2", "a2", { role: "user", content: "Change it to bye." }),
		assistant("a3", "u2", [
			{ type: "toolCall", id: "call_2", name: "edit", arguments: { path: "a.txt", text: "bye" } },
		]),
		message("r3", "a3", {
			role: "toolResult",
			toolCallId: "call_2",
			toolName: "edit",
			content: [{ type: "text", text: "ok" }],
			isError: false,
		}),
		assistant("a4", "r3", [{ type: "text", text: "Done: it says bye." }]),
	];
}

/** The session written to a temporary file. */
export function writeAgentSession(): string {
	return writeLog(agentSessionLines(), "agent");
}

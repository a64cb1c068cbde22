/** Converting bundle messages for a provider: every framing, and what passes through. */
import { describe, expect, it } from "vitest";
import { type ContextMessage, convertToLlm } from "../src/index.js";

const text = (messages: ContextMessage[]) =>
	convertToLlm(messages).map((m) => {
		expect(m.role).toBe("user");
		return (m.content as { text: string }[])[0]?.text;
	});

const bash = (fields: Record<string, unknown>) =>
	({
		role: "bashExecution",
		command: "make",
		output: "",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		timestamp: 5,
		...fields,
	}) as ContextMessage;

describe("convertToLlm", () => {
	it("passes user, assistant and tool results through untouched", () => {
		const messages = [
			{ role: "user", content: "hi", timestamp: 1, extra: { kept: true } },
			{ role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 },
			{
				role: "toolResult",
				toolCallId: "c",
				toolName: "read",
				content: [],
				isError: false,
				timestamp: 3,
			},
		] as ContextMessage[];
		const out = convertToLlm(messages);
		expect(out).toEqual(messages);
		expect(out[0]).toBe(messages[0]);
	});

	it("frames bash executions like a transcript, by outcome", () => {
		expect(text([bash({ output: "ok" })])).toEqual(["Ran `make`\n```\nok\n```"]);
		expect(text([bash({})])).toEqual(["Ran `make`\n(no output)"]);
		expect(text([bash({ exitCode: 2 })])).toEqual([
			"Ran `make`\n(no output)\n\nCommand exited with code 2",
		]);
		expect(text([bash({ cancelled: true, exitCode: null })])).toEqual([
			"Ran `make`\n(no output)\n\n(command cancelled)",
		]);
		expect(text([bash({ truncated: true, fullOutputPath: "/tmp/x" })])).toEqual([
			"Ran `make`\n(no output)\n\n[Output truncated. Full output: /tmp/x]",
		]);
	});

	it("leaves out bash executions excluded from the context", () => {
		expect(convertToLlm([bash({ excludeFromContext: true })])).toEqual([]);
	});

	it("frames compaction and branch summaries, and custom messages with their type", () => {
		expect(
			text([
				{ role: "compactionSummary", summary: "S", tokensBefore: 9, timestamp: 1 },
				{ role: "branchSummary", summary: "B", fromId: "x", timestamp: 2 },
				{
					role: "custom",
					customType: "note",
					content: "N",
					display: true,
					timestamp: 3,
				} as ContextMessage,
			]),
		).toEqual([
			"The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
			"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB\n</summary>",
			"[note message]\nN",
		]);
	});

	it("keeps a custom message's images after its framed text", () => {
		const image = { type: "image", data: "aGk=", mimeType: "image/png" };
		const [out] = convertToLlm([
			{
				role: "custom",
				customType: "shot",
				content: [{ type: "text", text: "see" }, image],
				display: true,
				timestamp: 1,
			} as ContextMessage,
		]);
		expect(out?.content).toEqual([{ type: "text", text: "[shot message]\nsee" }, image]);
	});

	it("frames the collapse summary with all five components", () => {
		expect(
			text([
				{
					type: "custom",
					role: "collapse_context",
					payload: { summary: "goal: g\nnext steps: n" },
				},
			]),
		).toEqual([
			"[Previous session compact summary]\ngoal: g\ncompleted work:\nkey decisions:\nnext steps: n\ncritical context:",
		]);
	});
});

/**
 * A context as each provider's request body: tool calls paired with their
 * results (one made up for a call with none, a result with no call sent as
 * text), thinking dropped, images as the provider takes them, the cache
 * breakpoints on the system prompt and the last message; and `render
 * --format anthropic|openai` prints that body for a leaf.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_RESULT } from "../../src/eval/blocks.js";
import { parseCalls, pickCalls } from "../../src/eval/calls.js";
import { requestBody } from "../../src/eval/request.js";
import { parseModel, type RequestSettings } from "../../src/eval/settings.js";
import type { LlmMessage } from "../../src/session/messages.js";
import { runCli } from "../support/cli.js";
import { writeAgentSession } from "../support/eval-session.js";
import { section } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const settings = (provider: "anthropic" | "openai", baseUrl?: string): RequestSettings => ({
	model: { provider, model: "m-1" },
	maxTokens: 100,
	tools: [
		{ name: "read", description: "Reads a file", parameters: { type: "object" } },
		{ name: "edit" },
	],
	...(baseUrl === undefined ? {} : { baseUrl }),
});

const messages: LlmMessage[] = [
	{ role: "user", content: "hi" },
	{
		role: "assistant",
		content: [
			{ type: "thinking", thinking: "hmm" },
			{ type: "text", text: "Reading." },
			{ type: "toolCall", id: "c.1", name: "read", arguments: { path: "a" } },
			{ type: "toolCall", id: "c2", name: "read", arguments: { path: "b" } },
		],
	},
	{
		role: "toolResult",
		toolCallId: "c.1",
		toolName: "read",
		content: [
			{ type: "text", text: "A" },
			{ type: "image", data: "QUJD", mimeType: "image/png" },
		],
		isError: false,
	},
	{ role: "user", content: [{ type: "text", text: "go on" }] },
	{
		role: "toolResult",
		toolCallId: "lost",
		toolName: "grep",
		content: [{ type: "text", text: "x" }],
	},
];

describe("the Anthropic body", () => {
	const body = requestBody({ systemPrompt: "SYS", messages }, settings("anthropic")) as {
		system: unknown;
		messages: { role: string; content: Record<string, unknown>[] }[];
		tools: unknown;
	};

	it("marks the system prompt and the last message as cache breakpoints", () => {
		expect(body.system).toEqual([
			{ type: "text", text: "SYS", cache_control: { type: "ephemeral" } },
		]);
		const last = body.messages.at(-1)?.content.at(-1);
		expect(last?.cache_control).toEqual({ type: "ephemeral" });
		const marked = JSON.stringify(body.messages).match(/cache_control/g) ?? [];
		expect(marked).toHaveLength(1);
	});

	it("sends tool calls as tool_use, results as tool_result, thinking dropped, a missing result made up", () => {
		expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "user", "user"]);
		expect(body.messages[1]?.content).toEqual([
			{ type: "text", text: "Reading." },
			{ type: "tool_use", id: "c_1", name: "read", input: { path: "a" } },
			{ type: "tool_use", id: "c2", name: "read", input: { path: "b" } },
		]);
		expect(body.messages[2]?.content).toEqual([
			{
				type: "tool_result",
				tool_use_id: "c_1",
				content: [
					{ type: "text", text: "A" },
					{ type: "image", source: { type: "base64", media_type: "image/png", data: "QUJD" } },
				],
			},
			{
				type: "tool_result",
				tool_use_id: "c2",
				content: [{ type: "text", text: NO_RESULT }],
				is_error: true,
			},
		]);
		const orphan = body.messages[4]?.content;
		expect(orphan?.[0]?.text).toMatch(/grep.*lost/);
	});

	it("declares the tools, an open schema for one known by name", () => {
		expect(body.tools).toEqual([
			{ name: "read", description: "Reads a file", input_schema: { type: "object" } },
			{ name: "edit", input_schema: { type: "object", additionalProperties: true } },
		]);
	});
});

describe("the OpenAI body", () => {
	it("puts the system prompt first, tool calls as tool_calls, results as role tool, images after them", () => {
		const body = requestBody({ systemPrompt: "SYS", messages }, settings("openai")) as {
			messages: Record<string, unknown>[];
			max_completion_tokens?: number;
		};
		expect(body.max_completion_tokens).toBe(100);
		expect(body.messages.map((m) => m.role)).toEqual([
			"system",
			"user",
			"assistant",
			"tool",
			"tool",
			"user",
			"user",
			"user",
		]);
		expect(body.messages[2]).toEqual({
			role: "assistant",
			content: "Reading.",
			tool_calls: [
				{ id: "c.1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
				{ id: "c2", type: "function", function: { name: "read", arguments: '{"path":"b"}' } },
			],
		});
		expect(body.messages[3]).toEqual({ role: "tool", tool_call_id: "c.1", content: "A" });
		expect(body.messages[4]).toEqual({ role: "tool", tool_call_id: "c2", content: NO_RESULT });
		expect(JSON.stringify(body.messages[5])).toContain("data:image/png;base64,QUJD");
	});

	it("gives another endpoint max_tokens", () => {
		const body = requestBody(
			{ systemPrompt: "", messages },
			settings("openai", "http://127.0.0.1:1/v1"),
		);
		expect(body.max_tokens).toBe(100);
		expect(body).not.toHaveProperty("max_completion_tokens");
		expect((body.messages as { role: string }[])[0]?.role).toBe("user");
	});
});

describe("models and calls", () => {
	it("reads provider:model, the id keeping its colons", () => {
		expect(parseModel("openai:qwen3:8b")).toEqual({ provider: "openai", model: "qwen3:8b" });
		expect(() => parseModel("gemini:x")).toThrow(/anthropic, openai/);
	});

	it("picks last, all, a list, and a seeded sample that repeats with its seed", () => {
		expect(pickCalls(parseCalls("last"), 5, "s", 1)).toEqual([4]);
		expect(pickCalls(parseCalls("all"), 3, "s", 1)).toEqual([0, 1, 2]);
		expect(pickCalls(parseCalls("3,1"), 5, "s", 1)).toEqual([1, 3]);
		expect(() => pickCalls(parseCalls("7"), 5, "s", 1)).toThrow(/has 5 calls/);
		const a = pickCalls(parseCalls("sample:3"), 50, "s", 42);
		expect(a).toHaveLength(3);
		expect(pickCalls(parseCalls("sample:3"), 50, "s", 42)).toEqual(a);
		const seeds = new Set(
			[1, 2, 3, 4, 5].map((seed) => pickCalls(parseCalls("sample:3"), 50, "s", seed).join()),
		);
		expect(seeds.size).toBeGreaterThan(1);
		expect(() => parseCalls("sample:0")).toThrow(/sample:N/);
	});
});

describe("render --format anthropic|openai", () => {
	it("prints the body of the leaf's context, the session's model and tools by default", async () => {
		const file = writeAgentSession();
		const run = await runCli(["render", file, "--leaf", "r1", "--format", "anthropic"]);
		expect(run.code).toBe(0);
		const body = JSON.parse(run.stdout);
		expect(body.model).toBe("claude-sonnet-4-5");
		expect(body.max_tokens).toBe(4096);
		expect(body.tools.map((t: { name: string }) => t.name).sort()).toEqual(["edit", "read"]);
		expect(body.messages.at(-1).content[0].type).toBe("tool_result");
		const llm = JSON.parse(
			(await runCli(["render", file, "--leaf", "r1", "--format", "llm"])).stdout,
		);
		expect(body.system[0].text).toBe(llm.systemPrompt);
	});

	it("takes a tools file, a model and a base URL; refuses request options for other formats", async () => {
		const file = writeAgentSession();
		const run = await runCli([
			"render",
			file,
			"--format",
			"openai",
			"--model",
			"openai:gpt-x",
			"--base-url",
			"http://127.0.0.1:9/v1",
			"--temperature",
			"0.5",
		]);
		const body = JSON.parse(run.stdout);
		expect(body).toMatchObject({ model: "gpt-x", max_tokens: 4096, temperature: 0.5 });
		// A manifest's definitions are declared as written, and its names are the tools the prompt lists.
		const manifest = join(tempDir(), "tools.json");
		const grep = { type: "object", properties: { pattern: { type: "string" } } };
		writeFileSync(
			manifest,
			JSON.stringify([{ name: "grep_zz", description: "search", parameters: grep }]),
		);
		const declared = JSON.parse(
			(await runCli(["render", file, "--leaf", "r1", "--format", "anthropic", "--tools", manifest]))
				.stdout,
		);
		expect(declared.tools[0]).toEqual({
			name: "grep_zz",
			description: "search",
			input_schema: grep,
		});
		expect(declared.tools.slice(1).map((t: { name: string }) => t.name)).toEqual(["read"]);
		const listed = section(declared.system[0].text, "tools");
		expect(listed).toContain("grep_zz");
		expect(listed).not.toContain("edit");
		const wrong = await runCli(["render", file, "--model", "x"]);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toMatch(/--model shapes a request body/);
	});
});

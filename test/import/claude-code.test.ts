/**
 * Claude Code transcripts, one fixture per shape: the tree and its rewind
 * branch, one response over several records, parallel calls chained as
 * pseudo-branches, compaction, sidechains (a sub-agent's transcript all
 * sidechain), and records of unknown types; the calls a file bills.
 * Each import loads under --strict; reading the source directly gives the same messages.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importSession, recordedCalls } from "../../src/import/convert.js";
import { ContextService } from "../../src/service/context-service.js";
import { FIXTURES, importFixture, roles, textOf } from "./support.js";

describe("Claude Code import", () => {
	it("follows uuid/parentUuid to the latest branch; titles become session_info", () => {
		const { bundle, lines, result } = importFixture("cc-tree.jsonl");
		expect(result.format).toBe("claude-code");
		expect(bundle.messages.map(textOf)).toEqual([
			"Say hello",
			"Hello",
			"Second try",
			"Second answer",
		]);
		const infos = lines.filter((l) => l.type === "session_info").map((l) => l.name);
		expect(infos).toEqual(["Greeting branches", "Greetings"]);
		expect(lines[0]).toMatchObject({ type: "session", version: 3, id: "cc-s1", cwd: "/work/demo" });
	});

	it("merges the records of one response into one message, its usage counted once", () => {
		const { bundle, lines } = importFixture("cc-merged-response.jsonl");
		expect(roles(bundle)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const first = bundle.messages[1] as unknown as {
			content: { type: string }[];
			usage: { output: number; cacheRead: number };
		};
		expect(first.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
		expect(first.usage).toMatchObject({ output: 30, cacheRead: 7 });
		expect(bundle.messages[2]).toMatchObject({
			toolName: "Bash",
			toolCallId: "t1",
			isError: false,
		});
		const models = lines.filter((l) => l.type === "model_change").map((l) => l.modelId);
		expect(models).toEqual(["claude-opus-4-5", "claude-sonnet-4-5"]);
		expect(bundle.meta.model).toMatchObject({ modelId: "claude-sonnet-4-5" });
	});

	it("puts every result of parallel calls on the active branch, with errors and images", () => {
		const { bundle } = importFixture("cc-parallel-calls.jsonl");
		expect(roles(bundle)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		const results = bundle.messages.filter((m) => m.role === "toolResult") as unknown as {
			toolCallId: string;
			isError: boolean;
			content: { type: string }[];
		}[];
		expect(results.map((r) => r.toolCallId).sort()).toEqual(["t1", "t2", "t3"]);
		expect(results.find((r) => r.toolCallId === "t2")?.isError).toBe(true);
		expect(results.find((r) => r.toolCallId === "t1")?.content.map((b) => b.type)).toEqual([
			"text",
			"image",
		]);
		expect(textOf(bundle.messages.at(-1) as unknown as { content: unknown })).toBe(
			"Read all three.",
		);
	});

	it("makes one compaction of a boundary and its summary record; the summary reaches the model once", () => {
		const { bundle, lines } = importFixture("cc-compaction.jsonl");
		expect(roles(bundle)).toEqual(["compactionSummary", "user", "assistant"]);
		const all = JSON.stringify(bundle.messages);
		expect(all.split("the plan was made").length - 1).toBe(1);
		expect(lines.filter((l) => l.type === "compaction")).toHaveLength(1);
		expect(lines.find((l) => l.type === "compaction")).toMatchObject({
			tokensBefore: 120000,
			parentId: "a1",
		});
	});

	it("keeps sidechain records out of the context and lists them", () => {
		const { bundle, lines } = importFixture("cc-sidechain.jsonl");
		expect(bundle.messages.map(textOf)).toEqual([
			"Delegate a search",
			"",
			"found it in x.ts",
			"It is in x.ts",
		]);
		const source = lines.find((l) => l.customType === "import_source") as {
			data: { sidechains: unknown[] };
		};
		expect(source.data.sidechains).toEqual([{ agent: "agent-1", records: 3, firstLine: 3 }]);
		expect(lines.filter((l) => l.customType === "claude-code/sidechain")).toHaveLength(3);
	});

	it("reads a sub-agent's transcript (all sidechain) as its own main line, and a session that opens on a sidechain as a session", () => {
		const linesOf = (bytes: Buffer, file: string) =>
			importSession(bytes, file)
				.text.trimEnd()
				.split("\n")
				.map((l) => JSON.parse(l) as Record<string, unknown>);
		const sourceOf = (lines: Record<string, unknown>[]) =>
			(lines.find((l) => l.customType === "import_source") as { data: Record<string, unknown> })
				.data;
		const agentFile = join(FIXTURES, "bill/cc-subagent/session/subagents/agent-a9.jsonl");
		const agent = linesOf(readFileSync(agentFile), agentFile);
		expect(agent.filter((l) => l.type === "message").length).toBeGreaterThan(0);
		expect(agent.filter((l) => l.customType === "claude-code/sidechain")).toEqual([]);
		expect(sourceOf(agent)).toMatchObject({ sidechainFile: true });
		expect(sourceOf(agent)).not.toHaveProperty("onlySidechains");
		// The sidechain records moved before the main line's: read as a session all the same.
		const file = join(FIXTURES, "cc-sidechain.jsonl");
		const records = readFileSync(file, "utf8").trimEnd().split("\n");
		const side = records.filter((r) => r.includes('"isSidechain": true'));
		expect(side.length).toBeGreaterThan(0);
		const reordered = [...side, ...records.filter((r) => !side.includes(r))].join("\n");
		const lines = linesOf(Buffer.from(reordered), file);
		expect(sourceOf(lines)).toMatchObject({ sidechainFile: false });
		expect(lines.filter((l) => l.customType === "claude-code/sidechain")).toHaveLength(side.length);
	});

	it("bills a file without converting it as converting it bills it", () => {
		const names = readdirSync(FIXTURES, { recursive: true })
			.map(String)
			.filter((n) => n.endsWith(".jsonl"));
		expect(names.length).toBeGreaterThan(10);
		let billed = 0;
		for (const name of names) {
			const bytes = readFileSync(join(FIXTURES, name));
			const calls = recordedCalls(bytes, name);
			expect(calls, name).toEqual(importSession(bytes, name).calls ?? []);
			billed += calls.length;
		}
		expect(billed).toBeGreaterThan(0);
	});

	it("skips records of unknown types with a located warning, and keeps the chain through them", () => {
		const { bundle, result } = importFixture("cc-unknown-record.jsonl");
		expect(bundle.messages.map(textOf)).toEqual(["Hello", "Hi"]);
		const located = result.warnings.map((w) => [w.line, w.code]);
		expect(located).toEqual([
			[2, "unknown_record"],
			[4, "unknown_record"],
			[5, "torn_line"],
		]);
		expect(result.counts["brand-new-record"]).toEqual({ mapped: 0, custom: 0, warned: 1 });
	});

	it("gives a tool call whose input is not an object arguments that are, with a warning", () => {
		const file = join(FIXTURES, "cc-parallel-calls.jsonl");
		const text = readFileSync(file, "utf8")
			.replace('"input": {"path": "x"}', '"input": null')
			.replace('"input": {"path": "y"}', '"input": "y"');
		const result = importSession(Buffer.from(text), file);
		const calls = result.text
			.split("\n")
			.filter((l) => l.includes('"toolCall"'))
			.flatMap((l) =>
				JSON.parse(l).message.content.filter((b: { type: string }) => b.type === "toolCall"),
			);
		expect(calls.slice(0, 2).map((c: { arguments: unknown }) => c.arguments)).toEqual([
			{},
			{ input: "y" },
		]);
		expect(result.warnings.map((w) => [w.line, w.code])).toEqual([
			[2, "import_lossy"],
			[3, "import_lossy"],
		]);
	});

	it("reads a transcript given directly to the service as its import, with the same warnings", () => {
		for (const name of [
			"cc-parallel-calls.jsonl",
			"cc-unknown-record.jsonl",
			"cc-sidechain.jsonl",
		]) {
			const { bundle, result } = importFixture(name);
			const direct = new ContextService().loadSync(join(FIXTURES, name));
			expect(direct.messages).toEqual(bundle.messages);
			const codes = direct.meta.diagnostics.map((d) => [d.line, d.code]);
			expect(codes).toEqual(result.warnings.map((w) => [w.line, w.code]));
		}
	});
});

/**
 * An imported session's tool inventory: the tools its calls used, and the
 * definitions a Codex `session_meta` records, written as a
 * `session_metadata` entry; the system prompt lists them as it lists a pi
 * log's. A session that calls and records no tool gets no inventory.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importSession } from "../../src/import/convert.js";
import { ContextService } from "../../src/service/context-service.js";
import { expectedSection, groupsOf } from "../support/expected.js";
import { section } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { importFixture } from "./support.js";

/** The names of the tools a bundle's assistant messages call, each once. */
function calledTools(messages: readonly unknown[]): string[] {
	const names = new Set<string>();
	for (const m of messages as { role: string; content?: unknown }[]) {
		if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
		for (const b of m.content as { type: string; name?: string }[]) {
			if (b.type === "toolCall" && b.name !== undefined) names.add(b.name);
		}
	}
	return [...names];
}

describe("an imported session's tools", () => {
	it.each(["cc-parallel-calls.jsonl", "codex-tools.jsonl"])(
		"%s: the tools its calls used, in the tools section",
		(name) => {
			const { bundle, lines } = importFixture(name);
			const called = calledTools(bundle.messages);
			expect(called.length).toBeGreaterThan(0);
			expect(section(bundle.systemPrompt, "tools")).toBe(
				expectedSection("tools", { toolGroups: groupsOf(called) }),
			);
			const inventory = lines.find((l) => l.customType === "session_metadata");
			expect(inventory).toMatchObject({ parentId: null, data: { tools: [...called].sort() } });
		},
	);

	it("a Codex session's recorded dynamic tools, called or not", () => {
		const meta = {
			timestamp: "2026-01-03T10:00:00.000Z",
			type: "session_meta",
			payload: {
				id: "cx-tools",
				timestamp: "2026-01-03T10:00:00.000Z",
				cwd: "/work",
				dynamic_tools: { tools: [{ type: "function", name: "lookup", description: "d" }] },
			},
		};
		const user = {
			timestamp: "2026-01-03T10:00:01.000Z",
			type: "response_item",
			payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
		};
		const file = join(tempDir("theway-import-tools-"), "rollout.jsonl");
		const result = importSession(
			Buffer.from(`${JSON.stringify(meta)}\n${JSON.stringify(user)}\n`),
			file,
		);
		writeFileSync(file, result.text);
		const bundle = new ContextService({ strict: true }).loadSync(file);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			expectedSection("tools", { toolGroups: groupsOf(["lookup"]) }),
		);
	});

	it("none when the session calls and records no tool", () => {
		const { bundle, lines } = importFixture("cc-tree.jsonl");
		expect(calledTools(bundle.messages)).toEqual([]);
		expect(lines.some((l) => l.customType === "session_metadata")).toBe(false);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			expectedSection("tools", { toolGroups: [] }),
		);
	});
});

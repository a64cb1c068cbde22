/**
 * Codex rollouts, one fixture per shape: rollback into a real branch, an
 * encrypted remote compaction, the pre-envelope layout, and the tool calls
 * of every kind with their outputs in each form. Each import loads under --strict.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENCRYPTED_SUMMARY } from "../../src/import/codex.js";
import { ContextService } from "../../src/service/context-service.js";
import { FIXTURES, importFixture, roles, textOf } from "./support.js";

describe("Codex import", () => {
	it("re-parents what follows a rollback into a real branch", () => {
		const { bundle, lines } = importFixture("codex-rollback.jsonl");
		expect(bundle.messages.map(textOf)).toEqual([
			"First question",
			"First answer",
			"Second question, asked again",
			"A better answer",
		]);
		const second = lines.find((l) => JSON.stringify(l).includes('"Second question"')) as {
			id: string;
		};
		expect(lines.some((l) => l.parentId === second.id)).toBe(true); // the abandoned branch is kept
	});

	it("makes an encrypted remote compaction a compaction that says so, with a warning", () => {
		const { bundle, result } = importFixture("codex-encrypted-compaction.jsonl");
		expect(roles(bundle)).toEqual(["compactionSummary", "user", "assistant"]);
		expect(JSON.stringify(bundle.messages[0])).toContain(
			JSON.stringify(ENCRYPTED_SUMMARY).slice(1, -1),
		);
		expect(result.warnings.map((w) => [w.line, w.code])).toEqual([[5, "import_lossy"]]);
	});

	it("gives each assistant message its own call's usage, counted before its output (0.58) or after it", () => {
		const { bundle } = importFixture("codex-usage.jsonl");
		const usage = bundle.messages
			.filter((m) => m.role === "assistant")
			.map((m) => {
				const { input, output } = (m as unknown as { usage: { input: number; output: number } })
					.usage;
				return [input, output];
			});
		expect(usage).toEqual([
			[100, 7],
			[130, 11],
			[150, 5],
		]);
	});

	it("reads the pre-envelope layout: a bare header, bare items, state lines", () => {
		const { bundle, lines, result } = importFixture("codex-legacy.jsonl");
		expect(lines[0]).toMatchObject({ type: "session", id: "cx-legacy-1" });
		expect(roles(bundle)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(bundle.messages[2]).toMatchObject({ toolName: "shell", isError: false });
		expect(result.counts.state).toEqual({ mapped: 0, custom: 1, warned: 0 });
	});

	it("maps calls of every kind to their outputs by call_id, exit codes from either form", () => {
		const { bundle, lines, result } = importFixture("codex-tools.jsonl");
		expect(roles(bundle)).toEqual([
			"custom",
			"custom",
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		const [dev, envc] = bundle.messages as unknown as { customType: string }[];
		expect([dev?.customType, envc?.customType]).toEqual([
			"codex/developer",
			"codex/environment_context",
		]);
		const call = bundle.messages[3] as unknown as {
			content: { type: string; name?: string }[];
			usage: { input: number; cacheRead: number };
		};
		expect(call.content.map((b) => b.name ?? b.type)).toEqual([
			"thinking",
			"shell",
			"apply_patch",
			"local_shell",
		]);
		expect(call.usage).toMatchObject({ input: 30, cacheRead: 20, output: 9 });
		const results = bundle.messages.filter((m) => m.role === "toolResult") as unknown as {
			toolName: string;
			isError: boolean;
			details?: { exitCode: number };
		}[];
		expect(results.map((r) => [r.toolName, r.isError, r.details?.exitCode])).toEqual([
			["shell", true, 1],
			["apply_patch", false, 0],
			["local_shell", false, undefined],
		]);
		expect(lines[0]).toMatchObject({
			id: "cx-s1",
			cwd: "/work/rollout",
			parentSession: "cx-parent",
		});
		expect(lines.filter((l) => l.type === "model_change").map((l) => l.modelId)).toEqual([
			"gpt-5",
			"gpt-5-codex",
		]);
		expect(result.warnings.map((w) => [w.line, w.code])).toEqual([[18, "unknown_record"]]);
		expect(
			result.counts["response_item/ghost_snapshot"] ?? result.counts.ghost_snapshot,
		).toMatchObject({ custom: 1 });
	});

	it("reads a rollout given directly to the service as its import", () => {
		const { bundle } = importFixture("codex-tools.jsonl");
		const file = join(FIXTURES, "codex-tools.jsonl");
		const direct = new ContextService().loadSync(file);
		expect(direct.messages).toEqual(bundle.messages);
		expect(direct.meta.diagnostics.map((d) => d.line)).toEqual([18]);
		// Strict reads it too: an unknown record type is a warning, as an unknown entry type is.
		expect(new ContextService({ strict: true }).loadSync(file).messages).toEqual(bundle.messages);
	});
});

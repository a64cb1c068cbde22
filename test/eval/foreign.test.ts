/**
 * `eval --calls all --vs` over a session of each kind the project reads:
 * a Claude Code file and a Codex rollout (read through the importers, as
 * every corpus command reads them) and a pi log, against a fake provider on
 * 127.0.0.1, Anthropic's protocol for the first and the last, OpenAI's for
 * the Codex one. Every call replay counts is asked under both sets, with
 * the recorded move beside the answer and each flip listed.
 */
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../support/cli.js";
import { fakeProviderEachTest } from "../support/fake-provider.js";
import { ROOT } from "../support/template-sets.js";

const SETS = ["--templates", "test/spec/templates", "--template-version", "v1"];
const provider = fakeProviderEachTest();

interface Call {
	index: number;
	entryId: string;
}
interface Run extends Call {
	set: string;
	error?: unknown;
	answer: { toolCalls: { name: string }[] };
	recorded: { text: string; toolCalls: { name: string }[] };
}
interface Report {
	runs: Run[];
	vs: { set: string; runs: Run[] };
	summary: { errors: number; flips: { index: number; a: string; b: string }[] };
}

describe("eval over each kind of session, every call, with --vs", () => {
	it.each([
		[
			"a Claude Code file",
			"test/fixtures/import/cc-parallel-calls.jsonl",
			"anthropic:claude-sonnet-4-5",
			"",
		],
		["a Codex rollout", "test/fixtures/import/codex-tools.jsonl", "openai:gpt-5", "/v1"],
		["a pi log", "test/fixtures/sessions/virtualized.jsonl", "anthropic:claude-sonnet-4-5", ""],
	])("%s", async (_, file, model, path) => {
		const replay = await runJson<{ sessions: { calls: Call[] }[] }>(["replay", file, "--quiet"]);
		const calls = replay.json.sessions[0]?.calls ?? [];
		expect(calls.length).toBeGreaterThan(1);
		const args = ["eval", file, "--model", model, "--base-url", `${provider.url}${path}`, ...SETS];
		const run = await runCli(
			[...args, "--calls", "all", "--vs", "v2", "--no-cache", "--format", "json"],
			ROOT,
		);
		expect(run.code, run.stderr).toBe(0);
		const report = JSON.parse(run.stdout) as Report;
		const where = (r: Run) => ({ index: r.index, entryId: r.entryId });
		const asked = calls.map((c) => ({ index: c.index, entryId: c.entryId }));
		expect(report.runs.map(where)).toEqual(asked);
		expect(report.vs.runs.map(where)).toEqual(asked);
		expect(report.summary.errors).toBe(0);
		expect(provider.fake.requests).toHaveLength(2 * calls.length);
		expect(new Set(provider.fake.requests.map((r) => r.path))).toEqual(
			new Set([path === "" ? "/v1/messages" : "/v1/chat/completions"]),
		);
		// Each run shows what the session did at that call, and what the model did instead.
		for (const r of report.runs) {
			expect(r.recorded.text !== "" || r.recorded.toolCalls.length > 0).toBe(true);
			expect(r.answer.toolCalls.map((t) => t.name)).toEqual(["read"]);
		}
		expect(report.summary.flips.map((f) => [f.index, f.a, f.b])).toEqual(
			calls.map((c) => [c.index, "read", "(text)"]),
		);
		// A later call's request carries the session's earlier tool results, in the provider's shape.
		const result = path === "" ? /"tool_result"/ : /"role":"tool"/;
		expect(provider.fake.requests.some((r) => result.test(JSON.stringify(r.body)))).toBe(true);
	});
});

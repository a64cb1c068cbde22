/**
 * The six example contexts of the design document, one fixture each. Where
 * the document spells text out, these tests pin it line for line; its `...`
 * elisions are ours, pinned only by the snapshots.
 *
 * Pinned: the harness's first line and the openings of its runtime-model
 * lines; the whole <tools>, <environment> and <lineage> blocks; the section
 * order; the messages before conversion; the converted collapse summary.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../src/index.js";
import { section } from "./support/session.js";

const FIXTURES = join(import.meta.dirname, "fixtures/examples");
const service = new ContextService();
const load = (name: string) => service.loadSync(join(FIXTURES, `${name}.jsonl`));

const TOOLS_COLLAPSE = [
	"- Files: edit, read, write",
	"- Execution: bash",
	"- Context & search: grep, outline",
	"- Session graph: session_graph_attach, session_graph_list, session_graph_read, session_graph_status, session_graph_wait",
].join("\n");

const LINEAGE = [
	"## Session lineage",
	"Collapse event:",
	"node id: node-01JEXAMPLE0000000000000000",
	"source session id: session-123",
].join("\n");

/** The opening tag lines of the prompt, in order. */
const sectionsOf = (prompt: string) =>
	prompt.split("\n").filter((l) => /^<[a-z]+>$/.test(l) && l !== "<memory>");

function expectHarnessShape(prompt: string, firstLine: string) {
	const harness = section(prompt, "harness")?.split("\n") ?? [];
	expect(harness[0]).toBe(firstLine);
	const openings = [
		"Session model: the conversation is stored as append-only session entries",
		"Collapse model: ",
		"Exploration: read files before editing",
		"Graph and subagent orchestration: dag_* tools",
	];
	const at = openings.map((o) => harness.findIndex((line) => line.startsWith(o)));
	expect(at.every((i) => i > 0)).toBe(true);
	expect([...at].sort((a, b) => a - b)).toEqual(at);
	// The behavioural rules come after the four descriptions.
	expect(harness.findIndex((l) => l.startsWith("Rules:"))).toBeGreaterThan(at[3] as number);
}

describe("1. normal session, no collapse lineage", () => {
	const bundle = load("1-normal");

	it("renders the documented harness, tools and environment", () => {
		expectHarnessShape(
			bundle.systemPrompt,
			"You are theway, a minimal coding assistant running in a terminal.",
		);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			"- Files: edit, git, ls, read, write\n- Execution: bash\n- Context & search: grep, outline",
		);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			"Current working directory: /home/user/project\n<memory>\nRemember: keep commit messages conventional.\n</memory>",
		);
		expect(sectionsOf(bundle.systemPrompt)).toEqual(["<harness>", "<tools>", "<environment>"]);
		expect(bundle.systemPrompt.endsWith("</environment>")).toBe(true);
	});

	it("passes the messages through as stored", () => {
		expect(bundle.messages).toEqual([
			{ role: "user", content: "add a login page", timestamp: 123 },
		]);
	});
});

describe("2. collapse child session", () => {
	const bundle = load("2-collapse-child");

	it("gains a lineage block but no summary text", () => {
		expectHarnessShape(
			bundle.systemPrompt,
			"You are theway, a minimal coding assistant running in a terminal.",
		);
		expect(section(bundle.systemPrompt, "tools")).toBe(TOOLS_COLLAPSE);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			"Current working directory: /home/user/project",
		);
		expect(section(bundle.systemPrompt, "lineage")).toBe(LINEAGE);
		expect(sectionsOf(bundle.systemPrompt)).toEqual([
			"<harness>",
			"<tools>",
			"<environment>",
			"<lineage>",
		]);
		expect(bundle.systemPrompt).not.toContain("Explored auth module");
		expect(bundle.systemPrompt).not.toContain("critical context:");
	});

	it("injects the compact summary once, as a collapse_context message", () => {
		expect(bundle.messages).toEqual([
			{
				type: "custom",
				role: "collapse_context",
				payload: {
					summary:
						"goal: \ncompleted work: \nkey decisions: \nnext steps: \ncritical context: Explored auth module; decided token refresh strategy; next step is the login form.",
				},
			},
		]);
	});

	it("converts it to the framed summary, empty components as bare labels", () => {
		const llm = service.convertToLlm(bundle);
		expect(llm).toEqual([
			{
				role: "user",
				content: [
					{
						type: "text",
						text: [
							"[Previous session compact summary]",
							"goal:",
							"completed work:",
							"key decisions:",
							"next steps:",
							"critical context: Explored auth module; decided token refresh strategy; next step is the login form.",
						].join("\n"),
					},
				],
			},
		]);
	});
});

describe("3. collapse into an existing session", () => {
	const bundle = load("3-collapse-into-existing");

	it("keeps the existing messages, then appends the collapse context", () => {
		expect(bundle.messages).toEqual([
			{ role: "user", content: "start the refactor", timestamp: 1 },
			{ role: "assistant", content: "beginning refactor...", timestamp: 2 },
			{
				type: "custom",
				role: "collapse_context",
				payload: {
					summary:
						"goal: \ncompleted work: \nkey decisions: \nnext steps: \ncritical context: Old session covered the parser rewrite and its tests.",
				},
			},
		]);
	});

	it("has the same lineage block as case 2", () => {
		expect(section(bundle.systemPrompt, "lineage")).toBe(LINEAGE);
		expect(bundle.systemPrompt).toBe(load("2-collapse-child").systemPrompt);
	});
});

describe("4. collapse with --adopt", () => {
	it("leaves the prompt unchanged from case 2; adopted runtime state stays out", () => {
		const bundle = load("4-collapse-adopt");
		expect(bundle.systemPrompt).toBe(load("2-collapse-child").systemPrompt);
		expect(bundle.messages).toEqual(load("2-collapse-child").messages);
		expect(JSON.stringify(bundle)).not.toContain("run-7");
	});
});

describe("5. session with no collapse metadata", () => {
	it("emits no lineage block: base prompt, cwd and memory only", () => {
		const bundle = load("5-no-collapse-metadata");
		expect(bundle.systemPrompt).not.toContain("<lineage>");
		expect(bundle.systemPrompt).not.toContain("## Session lineage");
		expect(sectionsOf(bundle.systemPrompt)).toEqual(["<harness>", "<tools>", "<environment>"]);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			"Current working directory: /home/user/project\n<memory>\nThe test suite runs with npm test.\n</memory>",
		);
		expect(bundle.messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		expect(bundle.meta.model).toEqual({ provider: "anthropic", modelId: "claude-opus-4-5" });
		expect(bundle.meta.thinkingLevel).toBe("medium");
	});
});

describe("6. session with a custom harness introduction", () => {
	const bundle = load("6-custom-intro");

	it("replaces the first sentence only", () => {
		expectHarnessShape(bundle.systemPrompt, "You are a database migration specialist.");
		const normal = section(load("1-normal").systemPrompt, "harness")?.split("\n").slice(1);
		expect(section(bundle.systemPrompt, "harness")?.split("\n").slice(1)).toEqual(normal);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			"- Files: edit, read, write\n- Execution: bash\n- Context & search: grep, outline",
		);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			"Current working directory: /home/user/project",
		);
		expect(bundle.systemPrompt).not.toContain("<lineage>");
	});
});

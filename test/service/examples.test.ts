/**
 * The six example contexts of the design document, one fixture each. Each
 * test states the view-model the design asks for (the tools and their
 * groups, the cwd, the memory, the lineage ids, the introduction) and
 * checks the session renders exactly what the bundled templates make of
 * it; the templates' wording itself is left to the snapshots.
 *
 * Pinned: the section order; the values in each section; the messages
 * before conversion; the converted collapse summary.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import {
	DEFAULT_INTRODUCTION,
	expectedCollapse,
	expectedSection,
	groupsOf,
	introductionOf,
} from "../support/expected.js";
import { section } from "../support/session.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures/examples");
const service = new ContextService();
const load = (name: string) => service.loadSync(join(FIXTURES, `${name}.jsonl`));

const TOOLS_COLLAPSE = expectedSection("tools", {
	toolGroups: groupsOf([
		"edit",
		"read",
		"write",
		"bash",
		"grep",
		"outline",
		"session_graph_attach",
		"session_graph_list",
		"session_graph_read",
		"session_graph_status",
		"session_graph_wait",
	]),
});

const LINEAGE = expectedSection("lineage", {
	lineage: { nodeId: "node-01JEXAMPLE0000000000000000", sourceSessionId: "session-123" },
});

/** The opening tag lines of the prompt, in order. */
const sectionsOf = (prompt: string) =>
	prompt.split("\n").filter((l) => /^<[a-z]+>$/.test(l) && l !== "<memory>");

/** The harness as the templates write it, with this first line. */
function expectHarness(prompt: string, introduction?: string) {
	expect(section(prompt, "harness")).toBe(
		expectedSection("harness", { harness: introduction === undefined ? {} : { introduction } }),
	);
	if (introduction !== undefined)
		expect(introductionOf(section(prompt, "harness"))).toBe(introduction);
}

describe("1. normal session, no collapse lineage", () => {
	const bundle = load("1-normal");

	it("renders the documented harness, tools and environment", () => {
		expectHarness(bundle.systemPrompt);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			expectedSection("tools", {
				toolGroups: groupsOf(["edit", "git", "ls", "read", "write", "bash", "grep", "outline"]),
			}),
		);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			expectedSection("environment", {
				environment: {
					cwd: "/home/user/project",
					memory: "Remember: keep commit messages conventional.",
				},
			}),
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
		expectHarness(bundle.systemPrompt);
		expect(introductionOf(section(bundle.systemPrompt, "harness"))).toBe(DEFAULT_INTRODUCTION);
		expect(section(bundle.systemPrompt, "tools")).toBe(TOOLS_COLLAPSE);
		expect(section(bundle.systemPrompt, "environment")).toBe(expectedSection("environment"));
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
						text: expectedCollapse(
							"Explored auth module; decided token refresh strategy; next step is the login form.",
						),
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
		expect(sectionsOf(bundle.systemPrompt)).toEqual(["<harness>", "<tools>", "<environment>"]);
		expect(section(bundle.systemPrompt, "environment")).toBe(
			expectedSection("environment", {
				environment: { cwd: "/home/user/project", memory: "The test suite runs with npm test." },
			}),
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
		expectHarness(bundle.systemPrompt, "You are a database migration specialist.");
		const normal = section(load("1-normal").systemPrompt, "harness")?.split("\n") ?? [];
		const custom = section(bundle.systemPrompt, "harness")?.split("\n") ?? [];
		expect(custom.length).toBe(normal.length);
		expect(custom.filter((line, i) => line !== normal[i])).toEqual([
			"You are a database migration specialist.",
		]);
		expect(section(bundle.systemPrompt, "tools")).toBe(
			expectedSection("tools", {
				toolGroups: groupsOf(["edit", "read", "write", "bash", "grep", "outline"]),
			}),
		);
		expect(section(bundle.systemPrompt, "environment")).toBe(expectedSection("environment"));
		expect(bundle.systemPrompt).not.toContain("<lineage>");
	});
});

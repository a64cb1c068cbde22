/**
 * The design document's invariants, one describe each, on logs written here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import {
	categoryOf,
	DEFAULT_INTRODUCTION,
	expectedSection,
	groupsOf,
	introductionOf,
} from "../support/expected.js";
import {
	assistant,
	compactContext,
	entry,
	HEADER,
	load,
	metadata,
	section,
	user,
	writeLog,
} from "../support/session.js";

const collapseMeta = { collapseNodeId: "node-1", sourceSessionId: "session-0" };

describe("1. session entries are only read", () => {
	it("leaves the log's bytes unchanged", () => {
		const path = writeLog([HEADER, user("a", null, "hi"), compactContext("c", "a", "goal: x")]);
		const before = readFileSync(path);
		const service = new ContextService();
		service.loadSync(path);
		service.convertToLlm(service.loadSync(path));
		expect(readFileSync(path).equals(before)).toBe(true);
	});
});

describe("2. the compact summary is injected exactly once, as collapse_context", () => {
	const collapses = (path: string) =>
		load(path).messages.filter((m) => m.role === "collapse_context");

	it("injects only the latest of a rolling collapse", () => {
		const path = writeLog([
			HEADER,
			metadata("m", null, collapseMeta),
			compactContext("c1", null, "goal: first"),
			user("u1", "c1", "more work"),
			compactContext("c2", "u1", "goal: second"),
			user("u2", "c2", "go on"),
		]);
		const bundle = load(path);
		expect(collapses(path)).toHaveLength(1);
		expect(JSON.stringify(bundle.messages)).not.toContain("first");
		expect(bundle.messages.map((m) => m.role)).toEqual(["user", "collapse_context", "user"]);
	});

	it("does not inject a collapse that lies on an abandoned branch", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "start"),
			compactContext("c1", "u1", "goal: abandoned"),
			assistant("a1", "c1", "on the old branch"),
			assistant("a2", "u1", "on the new branch"),
		]);
		expect(collapses(path)).toHaveLength(0);
		expect(load(path).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		// Naming the old leaf brings it back, once.
		const old = load(path, { leaf: "a1" }).messages.filter((m) => m.role === "collapse_context");
		expect(old).toHaveLength(1);
	});

	it("keeps a collapse summary that a later compaction cut off, first", () => {
		const path = writeLog([
			HEADER,
			compactContext("c1", null, "goal: keep me"),
			user("u1", "c1", "one"),
			assistant("a1", "u1", "two"),
			user("u2", "a1", "three"),
			entry("k", "u2", {
				type: "compaction",
				summary: "compacted",
				firstKeptEntryId: "u2",
				tokensBefore: 10,
			}),
			user("u3", "k", "four"),
		]);
		const roles = load(path).messages.map((m) => m.role);
		expect(roles).toEqual(["collapse_context", "compactionSummary", "user", "user"]);
	});
});

describe("3. the system prompt carries lineage identity only, never the summary", () => {
	it("shows ids but no compact text, whatever the summary says", () => {
		const summary = "goal: ship it\ncritical context: the secret plan";
		const path = writeLog([
			HEADER,
			metadata("m", null, collapseMeta),
			compactContext("c", null, summary),
		]);
		const { systemPrompt } = load(path);
		expect(section(systemPrompt, "lineage")).toBe(
			expectedSection("lineage", { lineage: { nodeId: "node-1", sourceSessionId: "session-0" } }),
		);
		expect(systemPrompt).not.toContain("ship it");
		expect(systemPrompt).not.toContain("secret plan");
	});

	it("has a lineage block iff collapse metadata exists", () => {
		const without = writeLog([HEADER, compactContext("c", null, "goal: x")]);
		expect(load(without).systemPrompt).not.toContain("<lineage>");
		const withIt = writeLog([HEADER, metadata("m", null, { collapseNodeId: "n" })]);
		expect(section(load(withIt).systemPrompt, "lineage")).toBe(
			expectedSection("lineage", { lineage: { nodeId: "n" } }),
		);
	});

	it("takes the source session from the header's parentSession when metadata has none", () => {
		const path = writeLog([
			{ ...HEADER, parentSession: "session-parent" },
			metadata("m", null, { collapseNodeId: "n" }),
		]);
		expect(section(load(path).systemPrompt, "lineage")).toBe(
			expectedSection("lineage", { lineage: { nodeId: "n", sourceSessionId: "session-parent" } }),
		);
	});
});

describe("4. raw transcripts stay out of the default context", () => {
	it("projects only the active branch", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "root"),
			assistant("a1", "u1", "abandoned answer"),
			assistant("a2", "u1", "kept answer"),
		]);
		const text = JSON.stringify(load(path).messages);
		expect(text).toContain("kept answer");
		expect(text).not.toContain("abandoned answer");
	});
});

describe("5. the tool inventory is grouped by category; unknown tools fall into Other", () => {
	const tools = (list: string[]) =>
		section(load(writeLog([HEADER, metadata("m", null, { tools: list })])).systemPrompt, "tools");

	it("lists categories in their fixed order, tools sorted, Other last, empty groups left out", () => {
		const list = ["zeta_tool", "write", "bash", "dag_wait", "read", "alpha_tool", "dag_run"];
		const groups = groupsOf(list);
		// The generator reaches what the invariant is about: several categories, Other among them, last.
		expect(groups.length).toBeGreaterThanOrEqual(3);
		expect(groups.at(-1)?.tools).toEqual(["alpha_tool", "zeta_tool"]);
		expect(tools(list)).toBe(expectedSection("tools", { toolGroups: groups }));
	});

	it("puts a single unknown tool under Other", () => {
		expect(tools(["mystery"])).toBe(
			expectedSection("tools", {
				toolGroups: [{ name: categoryOf("mystery"), tools: ["mystery"] }],
			}),
		);
	});

	it("matches prefix patterns and drops duplicates", () => {
		expect(tools(["session_graph_read", "session_graph_read", "session_tool_result"])).toBe(
			expectedSection("tools", {
				toolGroups: groupsOf(["session_graph_read", "session_tool_result"]),
			}),
		);
		expect(groupsOf(["session_graph_read", "session_tool_result"])).toHaveLength(2);
	});

	it("says so when there are no tools; runtime tools override the metadata", () => {
		expect(tools([])).toBe(expectedSection("tools", { toolGroups: [] }));
		expect(tools([])).not.toBe(tools(["read"]));
		const path = writeLog([HEADER, metadata("m", null, { tools: ["read"] })]);
		expect(section(load(path, { tools: ["bash"] }).systemPrompt, "tools")).toBe(
			expectedSection("tools", { toolGroups: groupsOf(["bash"]) }),
		);
	});
});

describe("6. the harness introduction is customisable per session", () => {
	it("replaces the first sentence; a later metadata value wins; null removes it", () => {
		const intro = (data: Record<string, unknown>[]) =>
			introductionOf(
				section(
					load(writeLog([HEADER, ...data.map((d, i) => metadata(`m${i}`, null, d))])).systemPrompt,
					"harness",
				),
			);
		expect(intro([{ harnessIntroduction: "You are A." }])).toBe("You are A.");
		expect(
			intro([{ harnessIntroduction: "You are A." }, { harnessIntroduction: "You are B." }]),
		).toBe("You are B.");
		expect(intro([{ harnessIntroduction: "You are A." }, { harnessIntroduction: null }])).toBe(
			DEFAULT_INTRODUCTION,
		);
	});
});

describe("the leaf rule", () => {
	it("never lets a metadata entry written last cut the transcript", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			metadata("m", null, { memory: "late memory" }),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("a1");
		expect(bundle.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(section(bundle.systemPrompt, "environment")).toContain("late memory");
	});
});

describe("section order", () => {
	it("is harness, tools, environment, lineage", () => {
		const path = writeLog([HEADER, metadata("m", null, { ...collapseMeta, memory: "m" })]);
		const tags = load(path)
			.systemPrompt.split("\n")
			.filter((l) => /^<\/?(harness|tools|environment|lineage)>$/.test(l));
		expect(tags).toEqual([
			"<harness>",
			"</harness>",
			"<tools>",
			"</tools>",
			"<environment>",
			"</environment>",
			"<lineage>",
			"</lineage>",
		]);
	});
});

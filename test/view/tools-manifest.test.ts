/**
 * The tools manifest: JSON or YAML, a list of names or of definitions (in
 * its own shape, Anthropic's or OpenAI's), or an object holding `tools`;
 * every problem a `bad_tools` error at its file, line and column.
 */
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { parseToolsManifest, toolNames } from "../../src/view/tools-manifest.js";

const FILE = "tools.yaml";

function failure(text: string): ContextError {
	try {
		parseToolsManifest(text, FILE);
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error("the manifest was accepted");
}

describe("a tools manifest", () => {
	it("is a list of names, in JSON or YAML", () => {
		expect(parseToolsManifest('["read", "bash"]', "t.json")).toEqual([
			{ name: "read" },
			{ name: "bash" },
		]);
		expect(parseToolsManifest("- read\n- bash\n", FILE)).toEqual([
			{ name: "read" },
			{ name: "bash" },
		]);
	});

	it("is a list of definitions, with their description and parameters", () => {
		const schema = { type: "object", properties: { path: { type: "string" } } };
		const text = JSON.stringify({
			tools: [
				{ name: "read", description: "Read a file", parameters: schema },
				{ name: "grep", input_schema: schema },
				{ type: "function", function: { name: "bash", description: "Run", parameters: schema } },
				"write",
			],
		});
		expect(parseToolsManifest(text, "t.json")).toEqual([
			{ name: "read", description: "Read a file", parameters: schema },
			{ name: "grep", parameters: schema },
			{ name: "bash", description: "Run", parameters: schema },
			{ name: "write" },
		]);
		expect(toolNames(parseToolsManifest(text, "t.json"))).toEqual([
			"read",
			"grep",
			"bash",
			"write",
		]);
	});

	it("refuses an item that is neither a name nor a definition, at its line and column", () => {
		const error = failure("- read\n- { name: bash, descripton: x }\n- 3\n");
		expect(error.code).toBe("bad_tools");
		expect(error.diagnostics.map((d) => [d.line, d.column])).toEqual([
			[2, 3],
			[3, 3],
		]);
		expect(error.message).toContain(`${FILE}:2:3`);
		expect(error.diagnostics[0]?.message).toMatch(/^at \[1\]: /);
	});

	it("refuses unreadable text, a tool listed twice, an empty name and an empty file", () => {
		const json = failure('["read",\n  "bash"\n');
		expect(json).toMatchObject({ code: "bad_tools", file: FILE });
		expect(json.line).toBeGreaterThanOrEqual(1);
		const twice = failure("- read\n- bash\n- read\n");
		expect(twice).toMatchObject({ line: 3, column: 3 });
		expect(twice.reason).toBe('tool "read" is listed twice (first as item 1)');
		expect(failure('- ""\n')).toMatchObject({ line: 1, column: 3 });
		expect(failure("- read me\n").reason).toMatch(/no spaces/);
		expect(failure("").reason).toMatch(/empty/);
		expect(failure("tools: read\n")).toMatchObject({ code: "bad_tools", line: 1 });
	});

	it("refuses a key twice in a definition, where the second stands", () => {
		const error = failure("- name: read\n  name: bash\n");
		expect(error).toMatchObject({ code: "bad_tools", line: 2, column: 3 });
	});
});

/**
 * YAML problems in categories.yaml and front-matter: every one a located
 * ContextError, all of a file's problems reported at once, and aliases that
 * would expand without end refused before they do.
 */
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/index.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { parseYaml } from "../../src/templates/yaml.js";
import { templateSet } from "../support/template-sets.js";

function compileError(changes: Parameters<typeof templateSet>[0]): unknown {
	try {
		for (const source of readTemplateSets(templateSet(changes)).values()) {
			compileTemplateSet(source);
		}
	} catch (error) {
		return error;
	}
	throw new Error("the template set compiled");
}

/** A "billion laughs": ten levels, each ten aliases of the one before. */
function laughs(levels: number): string {
	const lines = ['a0: &a0 ["lol"]'];
	for (let i = 1; i <= levels; i++) {
		lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
	}
	return `${lines.join("\n")}\nother: Other\ncategories: []\n`;
}

describe("YAML errors are located ContextErrors", () => {
	it("refuses aliases that expand without end, at the first alias", () => {
		const error = compileError({ "categories.yaml": laughs(10) });
		expect(error).toBeInstanceOf(ContextError);
		expect(error).toMatchObject({
			code: "bad_categories",
			file: expect.stringMatching(/categories\.yaml$/),
			line: 2,
			column: 10,
			reason: expect.stringMatching(/too many aliases/),
		});
	});

	it("still reads a few aliases", () => {
		const parsed = parseYaml("a: &x [1]\nb: *x\n", "f.yaml", "bad_categories");
		expect(parsed.value).toEqual({ a: [1], b: [1] });
	});

	it("reports every YAML problem of a file, each at its place", () => {
		const text = "other: A\nother: B\ncategories: []\ncategories: []\n";
		const error = compileError({ "categories.yaml": text }) as ContextError;
		expect(error).toBeInstanceOf(ContextError);
		const found = error.diagnostics.filter((d) => d.code === "bad_categories");
		expect(found.map((d) => [d.line, d.column])).toEqual([
			[2, 1],
			[4, 1],
		]);
	});

	it("reports every invalid field of a categories file", () => {
		const text = "other: ''\ncategories:\n  - name: A\n    tools: ['*_x', 'a b']\n";
		const error = compileError({ "categories.yaml": text }) as ContextError;
		const found = error.diagnostics.filter((d) => d.code === "bad_categories");
		expect(found.map((d) => d.line)).toEqual([1, 4, 4]);
		expect(found.map((d) => d.message)).toEqual([
			expect.stringMatching(/at other/),
			expect.stringMatching(/at categories\[0\]\.tools\[0\]/),
			expect.stringMatching(/at categories\[0\]\.tools\[1\]/),
		]);
	});

	it("reports every problem of a template's front-matter", () => {
		const error = compileError({
			"tools.hbs": (t) => t.replace(/^version: .*$/m, "version: 1\nversion: 2\nextra: [").trim(),
		}) as ContextError;
		const found = error.diagnostics.filter((d) => d.file?.endsWith("tools.hbs"));
		expect(found.length).toBeGreaterThan(1);
		expect(found.every((d) => d.code === "bad_front_matter" && d.line !== undefined)).toBe(true);
	});
});

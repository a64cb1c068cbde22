/**
 * YAML problems in categories.yaml and front-matter: every one a located
 * ContextError, all of a file's problems reported at once, aliases that
 * would expand without end refused before they do, and the slips of a
 * hand-written front-matter said in plain words at the line they are on.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/index.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { FrontMatterSchema } from "../../src/templates/front-matter.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { parseYaml } from "../../src/templates/yaml.js";
import { BUNDLED_SET, bundledStub, STUB_FILE, templateSet } from "../support/template-sets.js";

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

	it("says once that a front-matter is never closed, instead of reading the body as YAML", () => {
		const error = compileError({
			"lineage.hbs": (t) =>
				t.replace(/^---$/m, "PLACEHOLDER").replace(/^---$/m, "--").replace("PLACEHOLDER", "---"),
		}) as ContextError;
		const found = error.diagnostics.filter((d) => d.file?.endsWith("lineage.hbs"));
		expect(found.map((d) => [d.code, d.line, d.message])).toEqual([
			[
				"bad_front_matter",
				1,
				"the front-matter opened here is never closed: end it with a line of ---",
			],
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

const TOOLS = readFileSync(join(BUNDLED_SET, "tools.hbs"), "utf8");

/** The 1-based number of the first line of `text` that starts with `start`. */
function lineOf(text: string, start: string): number {
	return text.split("\n").findIndex((l) => l.startsWith(start)) + 1;
}

/** What the build says of tools.hbs edited by `edit`: each problem's place and message. */
function toolsProblems(edit: (text: string) => string) {
	const error = compileError({ "tools.hbs": edit }) as ContextError;
	return error.diagnostics
		.filter((d) => d.file?.endsWith("tools.hbs"))
		.map(({ line, column, message }) => ({ line, column, message }));
}

describe("front-matter slips, in plain words at their line", () => {
	it("names a key written without its colon", () => {
		const edit = (t: string) => t.replace(/^version: /m, "version ");
		expect(toolsProblems(edit)).toEqual([
			{ line: lineOf(edit(TOOLS), "version "), column: 1, message: 'missing ":" after "version"' },
		]);
	});

	it("names an indented key once, at its own line, not at the key above", () => {
		const edit = (t: string) => t.replace(/^version: /m, "  version: ");
		expect(toolsProblems(edit)).toEqual([
			{
				line: lineOf(edit(TOOLS), "  version: "),
				column: 3,
				message: '"version" is indented: top-level keys start at column 1',
			},
		]);
	});

	it("locates an unknown key at the key, with the key meant or the keys there are", () => {
		const edit = (t: string) =>
			t.replace(/^(description: .*)$/m, "$1\nbudjet: { tokens: 10 }\nzzzzzz: 1");
		const keys = Object.keys(FrontMatterSchema.shape).join(", ");
		expect(toolsProblems(edit)).toEqual([
			{
				line: lineOf(edit(TOOLS), "budjet:"),
				column: 1,
				message: 'invalid front-matter: unknown key "budjet" (did you mean "budget"?)',
			},
			{
				line: lineOf(edit(TOOLS), "zzzzzz:"),
				column: 1,
				message: `invalid front-matter: unknown key "zzzzzz" (allowed keys: ${keys})`,
			},
		]);
	});

	it("locates a key that belongs to another template at the key", () => {
		const policy = /^virtualize:\n(?:\s+.*\n)+/m.exec(bundledStub())?.[0] as string;
		const edit = (t: string) => t.replace(/^(description: .*\n)/m, `$1${policy}`);
		expect(toolsProblems(edit)).toEqual([
			{
				line: lineOf(edit(TOOLS), "virtualize:"),
				column: 1,
				message: `virtualize: belongs to ${STUB_FILE} only (the stub it configures)`,
			},
		]);
	});

	it("keeps other YAML messages, on the line they are about rather than a comment above it", () => {
		const text = "other: A\ncategories:\n  - name: B\n    tools: [b]\n# more\n   notes: x\n";
		const error = compileError({ "categories.yaml": text }) as ContextError;
		expect(
			error.diagnostics.map(({ line, column, message }) => ({ line, column, message })),
		).toEqual([{ line: 6, column: 1, message: "Sequence item without - indicator" }]);
	});
});

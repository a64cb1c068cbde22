/**
 * The hints a slip in a template's front-matter gets: a version written
 * without quotes (YAML reads `1.1` as a number) is told to quote it, at the
 * version's line, as a quoted bad version is; a quote never closed is said
 * at the quote, not where the parser ran out of text.
 */
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { parseTemplateFile } from "../../src/templates/front-matter.js";

function failure(text: string): ContextError {
	try {
		parseTemplateFile(text, "tools.hbs");
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error("the front-matter was accepted");
}

const withVersion = (version: string) =>
	`---\nname: tools\nversion: ${version}\ndescription: d\n---\nbody\n`;

describe("a template's version", () => {
	it.each(["1.1", "2", "1.1.0.0"])("unquoted %s: quote it, at its line", (version) => {
		const error = failure(withVersion(version));
		expect(error).toMatchObject({ code: "bad_front_matter", line: 3 });
		expect(error.reason).toContain('a version like "1.0.0"');
		expect(error.reason).toMatch(/quote/);
		expect(error.reason).not.toMatch(/expected string/);
	});

	it("unquoted 1.0: said as YAML reads it (the number 1), never as if 1 had been written", () => {
		const reason = failure(withVersion("1.0")).reason;
		expect(reason).toContain("YAML reads it as the number 1");
		expect(reason).not.toMatch(/reads 1 /);
	});

	it("quoted but not three numbers: the same hint", () => {
		expect(failure(withVersion('"1.1"')).reason).toContain('a version like "1.0.0"');
	});

	it("missing: said so", () => {
		const error = failure("---\nname: tools\ndescription: d\n---\nbody\n");
		expect(error.reason).toMatch(/version/);
	});
});

describe("a quote never closed", () => {
	const lines = ["---", "name: tools", 'version: "1.0.0"', "description: d", "---", "body", ""];
	it.each([
		[2, "name: 'tools"],
		[3, 'version: "1.0.0'],
		[4, 'description: "d'],
	])("on line %i: said at the quote that opens it", (line, text) => {
		const source = lines.map((l, i) => (i === line - 1 ? text : l)).join("\n");
		const error = failure(source);
		expect(error).toMatchObject({ code: "bad_front_matter", line, column: text.indexOf(":") + 3 });
		expect(error.reason).toMatch(/never closed/);
	});
});

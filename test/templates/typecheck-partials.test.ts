/** The static type checker: helpers and their arguments, partials and cycles, parse errors, locations. */
import { describe, expect, it } from "vitest";
import { typecheckTemplates } from "../../src/templates/typecheck.js";
import { SystemViewSchema } from "../../src/view/schema.js";
import { brief, check, helpers, tpl } from "../support/typecheck.js";

describe("typecheckTemplates: helpers, partials and locations", () => {
	it("reports unknown helpers, including log and unknown block helpers", () => {
		expect(brief('{{jion toolGroups ", "}}\n{{log "x"}}\n{{#eahc toolGroups}}{{/eahc}}')).toEqual([
			{
				code: "unknown_helper",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message: 'unknown helper "jion" (did you mean "join"?)',
			},
			{
				code: "unknown_helper",
				file: "templates/system.hbs",
				line: 2,
				column: 3,
				message: 'unknown helper "log" (log is not allowed: it cannot be type-checked)',
			},
			{
				code: "unknown_helper",
				file: "templates/system.hbs",
				line: 3,
				column: 4,
				message: 'unknown block helper "eahc" (did you mean "each"?)',
			},
		]);
	});

	it("reports a helper argument of the wrong kind", () => {
		expect(brief("{{#each toolGroups}}{{join name}}{{/each}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 28,
				message: 'argument 1 of join must be array, but "name" is string',
			},
		]);
		expect(brief("{{upper harness.introduction}}")).toMatchObject([
			{ code: "template_type", column: 9, message: expect.stringContaining("may be absent") },
		]);
	});

	it("reports a wrong helper arity, counting optional params", () => {
		expect(brief('{{join toolGroups ", " "x"}} {{join toolGroups}} {{join}}')).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message: "join takes 1 to 2 arguments, got 3",
			},
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 52,
				message: "join takes 1 to 2 arguments, got 0",
			},
		]);
	});

	it("reports an unknown partial with a did-you-mean, and unsupported partial forms", () => {
		const header = tpl("header", "# {{environment.cwd}}");
		expect(brief("{{> headr}}\n{{> (whichPartial)}}\n{{#> header}}x{{/header}}", [header])).toEqual(
			[
				{
					code: "unknown_partial",
					file: "templates/system.hbs",
					line: 1,
					column: 1,
					message: 'unknown partial "headr" (did you mean "header"?)',
				},
				{
					code: "unknown_partial",
					file: "templates/system.hbs",
					line: 2,
					column: 1,
					message: "dynamic partials ({{> (expr)}}) are not supported: name the partial",
				},
				{
					code: "unknown_partial",
					file: "templates/system.hbs",
					line: 3,
					column: 1,
					message: "partial blocks ({{#> name}}) are not supported",
				},
			],
		);
	});

	it("reports a partial cycle, naming the chain", () => {
		const a = tpl("a", "A {{> b}}");
		const b = tpl("b", "B\n{{> a}}");
		expect(brief("{{> a}}", [a, b])).toEqual([
			{
				code: "partial_cycle",
				file: "templates/b.hbs",
				line: 2,
				column: 1,
				message: "partial cycle: a → b → a",
			},
		]);
	});

	it("checks a partial with its caller's context, locating errors in the partial", () => {
		const tool = tpl("tool", "line one\n- {{nmae}} {{../environment.cwd}}");
		const body = [
			"{{#each toolGroups}}{{> tool}}{{/each}}",
			"{{#each toolGroups}}{{> tool}}{{/each}}",
			"{{> tool toolGroups.[0]}}",
		].join("\n");
		expect(brief(body, [tool])).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 3,
				column: 10,
				message:
					'"toolGroups.[0]" may be absent (object {name, tools} | undefined); guard it with {{#if toolGroups.[0]}}',
			},
			{
				code: "template_type",
				file: "templates/tool.hbs",
				line: 2,
				column: 5,
				message:
					'"nmae" does not exist: object {name, tools} has no field "nmae" (did you mean "name"?)',
			},
		]);
		// Hash params add fields to the partial's context.
		const greet = tpl("greet", "{{greeting}} {{environment.cwd}}");
		expect(brief('{{> greet greeting="hi"}}', [greet])).toEqual([]);
		// A partial no root calls is parsed, not type-checked.
		expect(brief("x", [tpl("orphan", "{{nothing}}")])).toEqual([]);
	});

	it("reports a parse error with its location", () => {
		// The tag at fault, found by scanning the tags, rather than Handlebars' grammar words.
		expect(brief("ok\n{{#each toolGroups}\n{{/each}}")).toEqual([
			{
				code: "bad_template",
				file: "templates/system.hbs",
				line: 2,
				column: 1,
				message: "this {{ is not closed: end the tag with }}",
			},
		]);
		expect(brief("ok\n{{#if lineage}}x{{/each}}")).toEqual([
			{
				code: "bad_template",
				file: "templates/system.hbs",
				line: 2,
				column: 17,
				message:
					"{{/each}} does not close the {{#if}} opened at 2:1: close that one first, with {{/if}}",
			},
		]);
		expect(brief("ok\n{{#if lineage}}\nx\n")).toEqual([
			{
				code: "bad_template",
				file: "templates/system.hbs",
				line: 2,
				column: 1,
				message: "{{#if}} opened here is never closed: add {{/if}}",
			},
		]);
		// What the scan does not explain keeps Handlebars' own words.
		expect(brief("{{lineage bad=}}")).toEqual([
			expect.objectContaining({ message: expect.stringMatching(/^Handlebars parse error: /) }),
		]);
	});

	it("reports every error of a run, sorted by file, line and column", () => {
		const partial = tpl("p", "{{missing}}");
		const result = check("{{environment}}\n{{lineage.nodeId}} {{nope}}\n{{> p}}", [partial]);
		expect(result.map((d) => [d.file, d.line, d.column, d.code])).toEqual([
			["templates/p.hbs", 1, 3, "template_type"],
			["templates/system.hbs", 1, 3, "template_type"],
			["templates/system.hbs", 2, 3, "template_type"],
			["templates/system.hbs", 2, 22, "template_type"],
		]);
	});

	it("shifts reported lines by bodyLine", () => {
		const result = typecheckTemplates({
			templates: [tpl("system", "text\n{{environment.cwdd}}", 5)],
			roots: new Map([["system", SystemViewSchema]]),
			helpers,
		});
		expect(result).toMatchObject([{ line: 6, column: 3 }]);
		// Without fileText the frame is cut from the body, numbered as in the file.
		expect(result[0]?.frame).toBe(
			["  5 | text", "> 6 | {{environment.cwdd}}", "    |   ^"].join("\n"),
		);
	});
});

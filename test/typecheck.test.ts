import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
	type HelperSignature,
	type TemplateSource,
	typecheckTemplates,
} from "../src/templates/typecheck.js";
import { SystemViewSchema } from "../src/view/schema.js";

const helpers: Record<string, HelperSignature> = {
	join: { params: ["array", "string"], optionalParams: 1, returns: "string" },
	upper: { params: ["string"], returns: "string" },
};

function tpl(name: string, body: string, bodyLine = 1): TemplateSource {
	return { name, file: `templates/${name}.hbs`, body, bodyLine };
}

/** Checks `body` as the root template `system`, rendered with SystemViewSchema. */
function check(body: string, partials: TemplateSource[] = []) {
	return typecheckTemplates({
		templates: [tpl("system", body), ...partials],
		roots: new Map([["system", SystemViewSchema]]),
		helpers,
	});
}

/** The findings without their frames, for compact assertions. */
function brief(body: string, partials: TemplateSource[] = []) {
	return check(body, partials).map(({ code, file, line, column, message }) => ({
		code,
		file,
		line,
		column,
		message,
	}));
}

describe("typecheckTemplates", () => {
	it("accepts a correct template against the real SystemViewSchema", () => {
		const body = [
			"{{#each toolGroups}}",
			'- {{name}}: {{join tools ", "}}',
			"{{/each}}",
			"{{#if lineage}}node id: {{lineage.nodeId}}{{#if lineage.sourceSessionId}} {{lineage.sourceSessionId}}{{/if}}{{/if}}",
			"{{#if environment.memory}}{{environment.memory}}{{/if}}",
			"{{!-- a comment --}}{{~environment.cwd~}}{{{{raw}}}}{{nothing here}}{{{{/raw}}}}",
		].join("\n");
		const raw: HelperSignature = { params: [], returns: "string" };
		const result = typecheckTemplates({
			templates: [tpl("system", body)],
			roots: new Map([["system", SystemViewSchema]]),
			helpers: { ...helpers, raw },
		});
		expect(result).toEqual([]);
	});

	it("reports a typo with a did-you-mean and an exact code frame", () => {
		const result = typecheckTemplates({
			templates: [
				{
					...tpl("tools", "<tools>\n{{#each toolGrups}}x{{/each}}", 3),
					fileText: "---\n---\n<tools>\n{{#each toolGrups}}x{{/each}}\n",
				},
			],
			roots: new Map([["tools", SystemViewSchema]]),
			helpers,
		});
		expect(result).toHaveLength(1);
		expect(result[0]).toMatchObject({
			severity: "error",
			code: "template_type",
			file: "templates/tools.hbs",
			line: 4,
			column: 9,
		});
		expect(result[0]?.message).toBe(
			'"toolGrups" does not exist: object {harness, toolGroups, environment, lineage?} has no field "toolGrups" (did you mean "toolGroups"?)',
		);
		expect(result[0]?.frame).toBe(
			["  3 | <tools>", "> 4 | {{#each toolGrups}}x{{/each}}", "    |         ^"].join("\n"),
		);
	});

	it("reports a nonexistent nested field with the type found", () => {
		expect(brief("{{environment.shell}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message: '"environment.shell" does not exist: object {cwd, memory?} has no field "shell"',
			},
		]);
	});

	it("reports an optional value used without a guard", () => {
		expect(brief("{{lineage.nodeId}}\n{{harness.introduction}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message:
					'"lineage.nodeId": "lineage" may be absent (string | undefined); guard it with {{#if lineage}}',
			},
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 2,
				column: 3,
				message:
					'"harness.introduction" may be absent (string | undefined); guard it with {{#if harness.introduction}}',
			},
		]);
	});

	it("accepts optional values guarded by #if, the else of #unless and #with", () => {
		const body = [
			"{{#if lineage}}{{lineage.nodeId}}{{else}}none{{/if}}",
			"{{#unless harness.introduction}}default{{else}}{{harness.introduction}}{{/unless}}",
			"{{#with environment}}{{cwd}}{{#if memory}}{{memory}}{{/if}}{{/with}}",
			"{{#with lineage}}{{nodeId}}{{/with}}",
			"{{#each toolGroups}}{{#if ../lineage}}{{../lineage.nodeId}}{{/if}}{{/each}}",
		].join("\n");
		expect(brief(body)).toEqual([]);
		// The guard covers only its own block.
		expect(brief("{{#if lineage}}{{/if}}{{lineage.nodeId}}")).toMatchObject([
			{ code: "template_type", line: 1, column: 25 },
		]);
		expect(brief("{{#with environment}}{{memory}}{{/with}}")).toMatchObject([
			{
				code: "template_type",
				column: 24,
				message: expect.stringContaining('"memory" may be absent'),
			},
		]);
	});

	it("reports #each over a non-array", () => {
		expect(brief("{{#each harness}}{{introduction}}{{/each}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 9,
				message: '#each needs an array, but "harness" is object {introduction?}',
			},
		]);
	});

	it("reports @index outside #each and allows it inside", () => {
		expect(brief("{{#each toolGroups}}{{@index}}{{#if @first}}first{{/if}}{{/each}}")).toEqual([]);
		expect(brief("{{@index}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message: "@index is only defined inside {{#each}}",
			},
		]);
	});

	it("reports ../ past the root", () => {
		expect(
			brief("{{#each toolGroups}}{{../environment.cwd}}{{/each}}{{../environment.cwd}}"),
		).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 54,
				message: '"../environment.cwd" goes 1 level up, past the root context',
			},
		]);
	});

	it("reports printing an object or an array", () => {
		expect(brief("{{environment}} {{toolGroups}}")).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 3,
				message:
					'"environment" is object {cwd, memory?}: only strings, numbers, booleans and enums can be printed',
			},
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 1,
				column: 19,
				message:
					'"toolGroups" is array of object {name, tools}: only strings, numbers, booleans and enums can be printed',
			},
		]);
	});

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

	it("binds block params of #each and #with", () => {
		const body = [
			"{{#each toolGroups as |group i|}}{{i}} {{group.name}}",
			"{{#each group.tools as |tool|}}{{tool}} of {{group.name}}{{/each}}{{/each}}",
			"{{#with environment as |env|}}{{env.cwd}}{{env.cwdd}}{{/with}}",
		].join("\n");
		expect(brief(body)).toEqual([
			{
				code: "template_type",
				file: "templates/system.hbs",
				line: 3,
				column: 44,
				message:
					'"env.cwdd" does not exist: object {cwd, memory?} has no field "cwdd" (did you mean "cwd"?)',
			},
		]);
	});

	it("reports a parse error with its location", () => {
		expect(brief("ok\n{{#each toolGroups}\n{{/each}}")).toEqual([
			{
				code: "bad_template",
				file: "templates/system.hbs",
				line: 2,
				column: 19,
				message: expect.stringContaining("Handlebars parse error: Expecting"),
			},
		]);
		expect(brief("ok\n{{#if lineage}}x{{/each}}")).toEqual([
			{
				code: "bad_template",
				file: "templates/system.hbs",
				line: 2,
				column: 4,
				message: "Handlebars parse error: if doesn't match each",
			},
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

	it("types unions and records, and reports lookup as unknown", () => {
		const View = z.object({
			names: z.array(z.string()),
			labels: z.record(z.string(), z.string()),
			shape: z.union([
				z.object({ kind: z.literal("a"), a: z.string() }),
				z.object({ kind: z.literal("b") }),
			]),
		});
		const result = typecheckTemplates({
			templates: [
				tpl("v", "{{labels.x}} {{shape.kind}} {{shape.a}} {{shape.b}} {{lookup names 0}}"),
			],
			roots: new Map([["v", View]]),
			helpers,
		});
		expect(result.map((d) => [d.code, d.column, d.message])).toEqual([
			[
				"template_type",
				31,
				'"shape.a" may be absent (string | undefined); guard it with {{#if shape.a}}',
			],
			[
				"template_type",
				43,
				'"shape.b" does not exist: object {kind, a} | object {kind} has no field "b" (did you mean "a"?)',
			],
			[
				"unknown_helper",
				55,
				'unknown helper "lookup" (lookup is not allowed: it cannot be type-checked)',
			],
		]);
	});
});

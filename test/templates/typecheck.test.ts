/** The static type checker: paths, optional values, #each, @index, ../, block params, unions. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type HelperSignature, typecheckTemplates } from "../../src/templates/typecheck.js";
import { SystemViewSchema } from "../../src/view/schema.js";
import { brief, helpers, tpl } from "../support/typecheck.js";

describe("typecheckTemplates: paths and scopes", () => {
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

	it("suggests the path of a field written at the wrong level, and lists what there is when nothing is near", () => {
		const [memory] = brief("{{memory}}");
		expect(memory?.message).toMatch(
			/has no field "memory" \(did you mean "environment\.memory"\?\)$/,
		);
		const [helper] = brief("{{shout environment.cwd}}");
		expect(helper?.message).toBe(
			'unknown helper "shout" (the helpers: each, if, join, unless, upper, with)',
		);
		const [partial] = brief("{{> rules}}", [tpl("tools", "x")]);
		expect(partial?.message).toBe(
			'unknown partial "rules" (the templates of this set: system, tools)',
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

/**
 * The type checker against Handlebars itself: each template is both checked
 * and compiled and rendered with the set's real options and helpers, so the
 * checker cannot accept what the renderer then fails on or prints as garbage.
 */
import fc from "fast-check";
import Handlebars from "handlebars";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMPILE_OPTIONS } from "../../src/templates/compile.js";
import { HELPER_SIGNATURES, HELPERS } from "../../src/templates/helpers.js";
import { typecheckTemplates } from "../../src/templates/typecheck.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

const View = z.object({
	s: z.string(),
	n: z.number(),
	b: z.boolean(),
	tools: z.array(z.string()),
	groups: z.array(z.object({ name: z.string() })),
	opt: z.string().optional(),
	o: z.object({ a: z.string() }),
});
/** Every optional field present, then every one absent and every value falsy. */
const SAMPLES: z.infer<typeof View>[] = [
	{ s: "str", n: 3, b: true, tools: ["a", "b"], groups: [{ name: "g" }], opt: "o", o: { a: "A" } },
	{ s: "", n: 0, b: false, tools: [], groups: [], o: { a: "" } },
];

const hb = Handlebars.create();
hb.unregisterHelper("log");
hb.unregisterHelper("lookup");
for (const [name, helper] of Object.entries(HELPERS)) hb.registerHelper(name, helper.fn);

function accepted(body: string): boolean {
	const found = typecheckTemplates({
		templates: [{ name: "t", file: "t.hbs", body, bodyLine: 1 }],
		roots: new Map([["t", View]]),
		helpers: HELPER_SIGNATURES,
	});
	return found.length === 0;
}

/** What Handlebars does with `body` on each sample: its text, or "throws". */
function rendered(body: string): string[] {
	return SAMPLES.map((view) => {
		try {
			return hb.compile(body, COMPILE_OPTIONS)(view);
		} catch {
			return "throws";
		}
	});
}

/** Output no prompt may hold: a failed render, an object or a missing value printed. */
const broken = (out: string) => out === "throws" || /\[object |undefined/.test(out);

describe("the checker agrees with Handlebars", () => {
	// A literal where a value is named is a lookup of its text, with strict: true.
	it.each([
		['{{"hello"}}', "throws"],
		["{{'hello'}}", "throws"],
		// `#with this` pushes no context in Handlebars: `../` then reaches past the root.
		["{{#with this}}{{code ../s}}{{/with}}", "throws"],
		["{{1}}", "throws"],
		["{{1.5}}", "throws"],
		["{{-1}}", "throws"],
		["{{true}}", "throws"],
		["{{false}}", "throws"],
		["{{null}}", "throws"],
		["{{undefined}}", "throws"],
		['{{""}}', "[object Object]"],
		['{{#each tools}}{{"x"}}{{/each}}', "throws"],
		['{{"s.length"}}', "throws"],
		['{{join groups ", "}}', "[object Object]"],
		['{{join "abc"}}', ""],
		["{{join (join tools)}}", ""],
		["{{join tools.length}}", ""],
		["{{join opt}}", ""],
		["{{fence tools}}", "```"],
		["{{s.length}}", "throws"],
		["{{#with s}}{{length}}{{/with}}", "throws"],
		// A guard may test a missing value, not read a field of one.
		["{{#if groups.[0].name}}x{{/if}}", "throws"],
		["{{#with opt.length}}x{{/with}}", "throws"],
	])("refuses %s, which Handlebars renders as %j", (body, bad) => {
		expect(rendered(body)).toContain(bad);
		expect(accepted(body)).toBe(false);
	});

	it.each([
		['{{"s"}}', "str"],
		["{{'s'}}", "str"],
		['{{#with o}}{{"a"}}{{/with}}', "A"],
		['{{#with s as |x|}}{{"x"}}{{/with}}', "str"],
		['{{"join" tools}}', "a, b"],
		["{{'join' tools \"-\"}}", "a-b"],
		['{{#"if" s}}yes{{/"if"}}', "yes"],
		['{{join tools ", "}}', "a, b"],
		["{{#each groups}}{{name}}{{/each}}", "g"],
		["{{code s}} {{fence s}}", "`str` ```"],
		['{{n}} {{plural n "item" "items"}}', "3 items"],
		['{{plural 1 "item" "items"}}', "item"],
		["{{#with tools}}{{length}}{{/with}}", "2"],
		["{{#if groups.[0]}}{{#each groups}}{{name}}{{/each}}{{/if}}", "g"],
	])("accepts %s, which Handlebars renders as %j", (body, first) => {
		expect(rendered(body)[0]).toBe(first);
		expect(rendered(body).filter(broken)).toEqual([]);
		expect(accepted(body)).toBe(true);
	});

	const literal = fc.constantFrom(
		'"s"',
		"'s'",
		'"x"',
		'"tools"',
		'"o"',
		'"join"',
		'""',
		'"a.b"',
		"1",
		"0",
		"-2",
		"true",
		"false",
		"null",
		"undefined",
	);
	const path = fc.constantFrom(
		"s",
		"n",
		"b",
		"tools",
		"groups",
		"opt",
		"o",
		"o.a",
		"this",
		"../s",
		"@index",
		"@root.s",
		"tools.length",
		"tools.[0]",
		"groups.[0].name",
		"s.length",
	);
	const helper = fc.constantFrom(
		"join",
		"fence",
		"code",
		"plural",
		'"join"',
		"'code'",
		"if",
		"lookup",
	);
	const arg: fc.Arbitrary<string> = fc.oneof(
		literal,
		path,
		fc
			.tuple(helper, fc.array(fc.oneof(literal, path), { maxLength: 2 }))
			.map(([h, a]) => `(${[h, ...a].join(" ")})`),
	);
	const mustache = fc.oneof(
		fc.oneof(literal, path).map((e) => `{{${e}}}`),
		fc
			.tuple(helper, fc.array(arg, { minLength: 1, maxLength: 3 }))
			.map(([h, a]) => `{{${[h, ...a].join(" ")}}}`),
	);
	const template = fc.oneof(
		mustache,
		fc
			.tuple(fc.constantFrom("if", "unless", "each", "with"), arg, mustache)
			.map(([block, a, inner]) => `{{#${block} ${a}}}${inner}{{/${block}}}`),
	);

	it("never accepts a template that Handlebars fails on or prints garbage with", () => {
		let acceptedCount = 0;
		fc.assert(
			fc.property(template, (body) => {
				if (!accepted(body)) return;
				acceptedCount++;
				expect(rendered(body).filter(broken)).toEqual([]);
			}),
			{ numRuns: RUNS * 5 },
		);
		expect(acceptedCount).toBeGreaterThan(0); // the property reached accepted templates
	});
});

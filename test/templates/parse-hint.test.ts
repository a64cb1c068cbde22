/**
 * The scan that names the tag at fault when Handlebars refuses a body: an
 * unclosed block where it opens, a closing tag that closes another block or
 * none, a `{{` without its `}}`; nothing for bodies whose tags pair up.
 */
import Handlebars from "handlebars";
import { describe, expect, it } from "vitest";
import { parseHint } from "../../src/templates/parse-hint.js";

describe("parseHint", () => {
	it("names where a block opened by the file's line, below the front-matter", () => {
		// The body starts on the file's line 6: its line 2 is the file's line 7.
		expect(parseHint("x\n{{#each toolGroups}}\n{{/if}}\n", 6)).toEqual({
			line: 3,
			column: 0,
			reason:
				"{{/if}} does not close the {{#each}} opened at 7:1: close that one first, with {{/each}}",
		});
	});

	it.each([
		[
			"a\n{{#if environment.memory}}\nx\n",
			2,
			0,
			"{{#if}} opened here is never closed: add {{/if}}",
		],
		[
			"{{#each toolGroups}}{{#if x}}y{{/each}}",
			1,
			30,
			"{{/each}} does not close the {{#if}} opened at 1:21: close that one first, with {{/if}}",
		],
		["{{environment.memory}\nmore {{x}}", 1, 0, "this {{ is not closed: end the tag with }}"],
		["x {{/if}}", 1, 2, "{{/if}} closes no block: remove it"],
		[
			"{{!-- {{#if a}} --}}{{#each a}}b",
			1,
			20,
			"{{#each}} opened here is never closed: add {{/each}}",
		],
		["{{#> layout}}z", 1, 0, "{{#layout}} opened here is never closed: add {{/layout}}"],
		["{{!-- open", 1, 0, "this comment is never closed: end it with --}}"],
		[
			"{{{{raw}}}} {{#if}} {{{{/raw}}}}{{#with a}}",
			1,
			32,
			"{{#with}} opened here is never closed: add {{/with}}",
		],
		["{{{{raw}}}} text", 1, 0, "this raw block is never closed: add {{{{/raw}}}}"],
	])("%j: %i:%i %s", (body, line, column, reason) => {
		expect(() => Handlebars.parse(body)).toThrow();
		expect(parseHint(body)).toEqual({ line, column, reason });
	});

	it("sees nothing wrong in bodies whose tags pair up", () => {
		for (const body of [
			"{{#if a}}b{{else}}c{{/if}}{{^x}}y{{/x}}{{#> layout}}z{{/layout}}",
			"{{{raw}}} {{#each a as |b|}}{{b}}{{/each}} {{~#if a~}} x {{~/if~}}",
			"{{! a comment with {{ inside }} {{#with a}}{{/with}}",
		]) {
			expect(() => Handlebars.parse(body)).not.toThrow();
			expect(parseHint(body)).toBeUndefined();
		}
	});
});

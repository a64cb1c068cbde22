/** Where and why a line is not JSON: a column and words, never "position N". */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateJsonError } from "../../src/log/json-error.js";

describe("locateJsonError", () => {
	it.each([
		['{"a":1}{"b":2}', 8, /two JSON values on one line/],
		['{"a":1} x', 9, /unexpected "x" after the end/],
		['{"a":}', 6, /unexpected "}" where a value should be/],
		['{"a":"x', 8, /string that is not closed \(it opens at column 6\)/],
		["{a:1}", 2, /double-quoted property name/],
		['{"a":1,}', 8, /trailing comma before }/],
		["[1,2,]", 6, /trailing comma before ]/],
		["[1 2]", 4, /',' or ']'/],
		['{"a" 1}', 6, /':'/],
		['{"a":tru}', 9, /unexpected "}" where "true" should be/],
		['{"a":01}', 7, /unexpected "1" where ',' or '}'/],
		['{"a":-}', 7, /malformed number/],
		['{"a":"\u0001"}', 7, /control character \(U\+0001\)/],
		['{"a":"\\q"}', 8, /bad escape/],
		['{"a":"\\u12G4"}', 11, /bad \\u escape/],
		['{"a":"\\u"}', 9, /bad \\u escape/],
		["\ufeff{}", 1, /byte-order mark \(U\+FEFF\)/],
		['{"a":[1', 8, /the line ends where ',' or ']' should be/],
		["", 1, /the line ends where a value should be/],
	])("%j: column %i", (text, column, reason) => {
		expect(() => JSON.parse(text)).toThrow();
		const error = locateJsonError(text);
		expect(error.column).toBe(column);
		expect(error.reason).toMatch(reason);
	});

	it("agrees with JSON.parse on where V8 names a position", () => {
		let located = 0;
		fc.assert(
			fc.property(
				fc.json(),
				fc.nat(),
				fc.constantFrom("}", "]", ",", ":", '"', "x", "\u0001", "{", "\\", "\\u", "\\u0"),
				(json, at, junk) => {
					const cut = at % (json.length + 1);
					const text = json.slice(0, cut) + junk + json.slice(cut);
					let position: number | undefined;
					try {
						JSON.parse(text);
						return;
					} catch (error) {
						const match = /at position (\d+)/.exec((error as Error).message);
						position = match === null ? undefined : Number(match[1]);
					}
					const { column } = locateJsonError(text);
					expect(column).toBeGreaterThanOrEqual(1);
					expect(column).toBeLessThanOrEqual(text.length + 1);
					if (position !== undefined) {
						located++;
						expect(column, text).toBe(position + 1);
					}
				},
			),
			{ numRuns: 2000 },
		);
		expect(located).toBeGreaterThan(200);
	});

	it("handles a line nested 100,000 deep without overflowing the stack", () => {
		const text = `${"[".repeat(100_000)}x`;
		expect(locateJsonError(text).column).toBe(100_001);
	});
});

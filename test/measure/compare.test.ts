/**
 * The comparer's options are those it reads: `strict` (a damaged line
 * refuses the session instead of being skipped with a warning) and `tools`;
 * it always compares the branch a session ends on, so it takes no leaf.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { Comparer } from "../../src/measure/compare.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { templateSet } from "../support/template-sets.js";

const tokenizer = loadTokenizerSync("chars");

describe("Comparer", () => {
	it("skips a damaged line with a warning, or refuses the session when strict", () => {
		const templates = templateSet();
		const sides = { from: { templates }, to: { templates } };
		const file = writeLog(
			[HEADER, user("u1", null, "hi"), "{not json", assistant("a1", "u1", "hello")]
				.map((l) => (typeof l === "string" ? l : JSON.stringify(l)))
				.join("\n"),
		);
		const lenient = new Comparer(sides, tokenizer).compare(file);
		expect(lenient.error).toBeUndefined();
		expect(lenient.changed).toEqual([]);
		expect(lenient.warnings.map((w) => w.line)).toEqual([3]);
		const strict = new Comparer(sides, tokenizer, { strict: true }).compare(file);
		expect(strict.error).toMatch(/:3:\d+: .*not valid JSON/);
	});

	it("takes no leaf: a diff compares the branch each session ends on (checked by tsc)", () => {
		type Options = NonNullable<ConstructorParameters<typeof Comparer>[2]>;
		expectTypeOf<Options>().toHaveProperty("strict");
		expectTypeOf<Options>().toHaveProperty("tools");
		expectTypeOf<Options>().not.toHaveProperty("leaf");
	});
});

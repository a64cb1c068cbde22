/**
 * The line diff: its edit script rebuilds both texts, keeps a longest common
 * subsequence (checked against a plain dynamic program on small inputs),
 * stays a true diff when its budget runs out, and its unified hunks add up.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LineEdit, lineEdits, unifiedDiff } from "../../src/text/line-diff.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const lines = fc.array(fc.constantFrom("a", "b", "c", "d", "}", ""), { maxLength: 40 });

const sideA = (edits: LineEdit[]) => edits.filter((e) => e.op !== "+").map((e) => e.text);
const sideB = (edits: LineEdit[]) => edits.filter((e) => e.op !== "-").map((e) => e.text);

function lcsLength(a: readonly string[], b: readonly string[]): number {
	const row = new Array(b.length + 1).fill(0);
	for (let i = 1; i <= a.length; i++) {
		let diag = 0;
		for (let j = 1; j <= b.length; j++) {
			const up = row[j];
			row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
			diag = up;
		}
	}
	return row[b.length];
}

describe("lineEdits", () => {
	it("rebuilds both sides and keeps a longest common subsequence", () => {
		fc.assert(
			fc.property(lines, lines, (a, b) => {
				const edits = lineEdits(a, b);
				expect(sideA(edits)).toEqual(a);
				expect(sideB(edits)).toEqual(b);
				expect(edits.filter((e) => e.op === " ")).toHaveLength(lcsLength(a, b));
			}),
			{ numRuns: RUNS },
		);
	});

	it("is still a true diff when the comparison budget runs out", () => {
		fc.assert(
			fc.property(lines, lines, (a, b) => {
				const edits = lineEdits(a, b, 1);
				expect(sideA(edits)).toEqual(a);
				expect(sideB(edits)).toEqual(b);
			}),
			{ numRuns: RUNS },
		);
		// The generator reaches the fallback: a shuffle whose diff needs more than one comparison.
		const edits = lineEdits(["a", "b", "c", "d"], ["d", "c", "b", "a"], 1);
		expect(edits.map((e) => e.op).join("")).toBe("----++++");
	});
});

describe("unifiedDiff", () => {
	it("is empty for equal texts, and its hunks cover exactly the lines they count", () => {
		fc.assert(
			fc.property(lines, lines, fc.integer({ min: 0, max: 3 }), (a, b, context) => {
				const textA = a.join("\n");
				const textB = b.join("\n");
				const diff = unifiedDiff(textA, textB, { context });
				if (textA === textB) {
					expect(diff).toBe("");
					return;
				}
				const rows = diff.split("\n");
				for (let r = 0; r < rows.length; ) {
					const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(rows[r] as string);
					expect(m).not.toBeNull();
					const want = { a: Number(m?.[2] ?? 1), b: Number(m?.[4] ?? 1) };
					let gotA = 0;
					let gotB = 0;
					for (r++; r < rows.length && !(rows[r] as string).startsWith("@@"); r++) {
						const op = (rows[r] as string)[0];
						if (op !== "+") gotA++;
						if (op !== "-") gotB++;
					}
					expect({ a: gotA, b: gotB }).toEqual(want);
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it("shows a one-line change with its context", () => {
		const a = ["1", "2", "3", "4", "5", "6", "7", "8"].join("\n");
		expect(unifiedDiff(a, a.replace("5", "five"), { context: 1 })).toBe(
			"@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6",
		);
	});

	it("diffs a hunk of hundreds of thousands of lines (no spread of the hunk onto the stack)", () => {
		const a = Array.from({ length: 100_000 }, (_, i) => `old ${i}`).join("\n");
		const b = Array.from({ length: 200_000 }, (_, i) => `new ${i}`).join("\n");
		const rows = unifiedDiff(a, b).split("\n");
		expect(rows[0]).toBe("@@ -1,100000 +1,200000 @@");
		expect(rows).toHaveLength(1 + 300_000);
	});

	it("numbers the lines of a change after a long unchanged start as in the whole texts", () => {
		const head = Array.from({ length: 50_000 }, (_, i) => `line ${i}`);
		const a = [...head, "x", "tail"].join("\n");
		const b = [...head, "y", "tail"].join("\n");
		expect(unifiedDiff(a, b, { context: 1 })).toBe(
			"@@ -50000,3 +50000,3 @@\n line 49999\n-x\n+y\n tail",
		);
	});
});

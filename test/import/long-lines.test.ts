/**
 * An imported log's bytes when an entry holds a long string (src/import/log-bytes.ts
 * writes such an entry a piece at a time): the same bytes as `JSON.stringify`
 * of each entry, whatever falls on a piece's edge (a surrogate pair, a lone
 * surrogate, an escaped character) and wherever the long string sits (in an
 * array beside `undefined`, beside an `undefined` field, in a record kept
 * as its text, deeper than the writer looks).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { customEntry, entry, header, logBytes } from "../../src/import/entries.js";

const head = header("s", "2026-01-01T00:00:00.000Z", "/w");
/** The length from which a string is written in pieces (and the pieces' length). */
const LONG = 1 << 16;

/** The bytes `JSON.stringify` gives of the log, a raw record's text as its `data`. */
function expected(entries: ReturnType<typeof entry>[], raws: (string | undefined)[]): Buffer {
	const lines = entries.map((e, i) => {
		const json = JSON.stringify(e);
		const raw = raws[i];
		return raw === undefined ? json : `${json.slice(0, -1)},"data":${raw}}`;
	});
	return Buffer.from(`${[JSON.stringify(head), ...lines].join("\n")}\n`, "utf8");
}

describe("a log with long strings", () => {
	it("is JSON.stringify's text, whatever falls on the edge of a piece", () => {
		const edges = [
			`a${"😀".repeat(LONG)}`, // a surrogate pair across the first edge
			`${"x".repeat(LONG - 1)}\ud800y${"z".repeat(LONG)}`, // a lone high surrogate before the edge
			`${"x".repeat(LONG)}\udc00${"é".repeat(LONG)}`, // a lone low surrogate after it
			`${'"\\\n\u0001'.repeat(LONG)}`, // escapes all along
			"→".repeat(3 * LONG + 7),
		];
		const entries = edges.map((text, i) =>
			entry("message", `m${i}`, i === 0 ? null : `m${i - 1}`, "t", {
				message: {
					role: "toolResult",
					content: [
						{ type: "text", text },
						undefined,
						{ type: "image", data: text, gone: undefined },
					],
					details: {
						stdout: text,
						n: Number.NaN,
						at: new Date(0),
						a: { b: { c: { deep: text } } },
					},
				},
			}),
		);
		const raw = JSON.stringify({ type: "x", big: edges[0] });
		entries.push(customEntry("claude-code/x", "r", "m4", "t", undefined, raw));
		entries.push(customEntry("claude-code/y", "q", "r", "t", undefined, '{"small":1}'));
		(entries[6] as Record<string, unknown>).note = edges[1];
		const chunks = logBytes(head, entries);
		expect(
			Buffer.concat(chunks).equals(
				expected(entries, [...edges.map(() => undefined), raw, '{"small":1}']),
			),
		).toBe(true);
	});

	it("is JSON.stringify's text for any long string of any characters", () => {
		const unit = fc.constantFrom(
			"a",
			"é",
			"→",
			"😀",
			"\ud800",
			"\udc00",
			'"',
			"\\",
			"\n",
			"\u0000",
		);
		let long = 0;
		fc.assert(
			fc.property(
				fc.array(unit, { minLength: 1, maxLength: 40 }),
				fc.integer({ min: LONG - 3, max: 2 * LONG + 3 }),
				(units, length) => {
					let text = "";
					while (text.length < length) text += units.join("");
					text = text.slice(0, length);
					if (text.length >= LONG) long++;
					const e = entry("message", "m", null, "t", {
						message: { role: "user", content: [{ type: "text", text }] },
					});
					return Buffer.concat(logBytes(head, [e])).equals(expected([e], [undefined]));
				},
			),
			{ numRuns: 60 },
		);
		// Most runs wrote a string in pieces (lengths from just under to twice the threshold).
		expect(long).toBeGreaterThan(40);
	});
});

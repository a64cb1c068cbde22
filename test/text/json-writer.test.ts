/**
 * The JSON writer against a plain recursive statement of what it writes:
 * `JSON.stringify`'s text, indented down to `indentDepth` levels and compact
 * below. The writer hands most containers to `JSON.stringify` whole and
 * walks the others itself; either way the text must be this one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonText, writeJson } from "../../src/text/json-writer.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);

/** What the writer documents, written the obvious way (recursive: for tests only). */
function reference(value: unknown, indent: number, indentDepth: number, depth = 0): string {
	const text = member(value, "", indent, indentDepth, depth);
	return text ?? "null";
}

function member(
	raw: unknown,
	key: string,
	indent: number,
	indentDepth: number,
	depth: number,
): string | undefined {
	const v =
		raw !== null &&
		typeof raw === "object" &&
		typeof (raw as { toJSON?: unknown }).toJSON === "function"
			? (raw as { toJSON(k: string): unknown }).toJSON(key)
			: raw;
	if (v === undefined || typeof v === "function" || typeof v === "symbol") return undefined;
	if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
	const pretty = indent > 0 && depth + 1 <= indentDepth;
	const pad = (d: number) => (pretty ? `\n${" ".repeat(indent * d)}` : "");
	const parts: string[] = [];
	if (Array.isArray(v)) {
		v.forEach((x, i) => {
			parts.push(member(x, String(i), indent, indentDepth, depth + 1) ?? "null");
		});
	} else {
		for (const k of Object.keys(v)) {
			const text = member((v as Record<string, unknown>)[k], k, indent, indentDepth, depth + 1);
			if (text !== undefined) parts.push(`${JSON.stringify(k)}${pretty ? ": " : ":"}${text}`);
		}
	}
	const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
	if (parts.length === 0) return `${open}${close}`;
	return `${open}${parts.map((p) => `${pad(depth + 1)}${p}`).join(",")}${pad(depth)}${close}`;
}

/** A value `n` levels deep: objects and arrays in turn, each with a sibling. */
function nested(n: number, leaf: unknown): unknown {
	let v = leaf;
	for (let i = 0; i < n; i++) v = i % 2 === 0 ? { a: v, b: [] } : [v, 1];
	return v;
}

describe("writeJson", () => {
	it("writes what JSON.stringify writes, indented to indentDepth and compact below", () => {
		fc.assert(
			fc.property(
				fc.jsonValue({ maxDepth: 8 }),
				fc.integer({ min: 0, max: 3 }),
				fc.integer({ min: 1, max: 7 }),
				(value, indent, indentDepth) => {
					expect(jsonText(value, { indent, indentDepth })).toBe(
						reference(value, indent, indentDepth),
					);
					expect(jsonText(value, { indent })).toBe(JSON.stringify(value, null, indent));
				},
			),
			{ numRuns: RUNS },
		);
	});

	it("goes on compact past the default 64 indented levels, at any depth", () => {
		for (const depth of [62, 63, 64, 65, 66, 130, 1000]) {
			const value = { messages: [nested(depth, "x")] };
			expect(jsonText(value, { indent: 2 })).toBe(reference(value, 2, 64));
		}
	});

	it("walks what JSON.stringify refuses: a cycle, a BigInt, a value too deep for the stack", () => {
		const cyclic: Record<string, unknown> = { id: 1 };
		cyclic.self = { back: [cyclic] };
		expect(jsonText({ a: [cyclic] }, { indent: 0 })).toBe(
			'{"a":[{"id":1,"self":{"back":["[Circular]"]}}]}',
		);
		expect(jsonText({ a: [{ n: 10n, m: [1] }] }, { indent: 1 })).toBe(
			'{\n "a": [\n  {\n   "n": "10",\n   "m": [\n    1\n   ]\n  }\n ]\n}',
		);
		const deep = nested(100_000, 1);
		const text = jsonText({ a: [deep] });
		expect(text.length).toBeGreaterThan(100_000 * 6);
		expect(text.startsWith('{"a":[[{"a":[{"a":[{"a":[')).toBe(true);
		expect(text.endsWith(',1],"b":[]},1]]}')).toBe(true);
	});

	it("writes the items of a long array in bounded chunks, natively or not", () => {
		const messages = Array.from({ length: 4000 }, (_, i) => ({
			role: "user",
			text: "x".repeat(200 + i),
		}));
		const chunks = (value: unknown) => {
			const out: string[] = [];
			writeJson(value, { indent: 2, write: (chunk) => out.push(chunk) });
			return out;
		};
		const bounded = (out: string[]) => {
			expect(out.length).toBeGreaterThan(10);
			expect(Math.max(...out.map((c) => c.length))).toBeLessThan(2 * 1024 * 1024);
		};
		const plain = chunks({ messages });
		bounded(plain);
		expect(plain.join("")).toBe(JSON.stringify({ messages }, null, 2));
		// A BigInt in the last message: its run is refused, its items go one at a time.
		const refused = chunks({ messages: [...messages, { n: 1n }] });
		bounded(refused);
		expect(refused.join("")).toBe(JSON.stringify({ messages: [...messages, { n: "1" }] }, null, 2));
		// toJSON is given each item's own index, as JSON.stringify gives it.
		const keys: string[] = [];
		const dated = (i: number) => ({ toJSON: (key: string) => keys.push(key) && i });
		expect(jsonText({ list: [[dated(0), dated(1), 7, dated(2)]] }, { indent: 2 })).toBe(
			JSON.stringify({ list: [[0, 1, 7, 2]] }, null, 2),
		);
		expect(keys).toEqual(["0", "1", "3"]);
	});

	it("writes a hole of a sparse array as null, at any level", () => {
		// biome-ignore lint/suspicious/noSparseArray: the case under test
		const sparse = [1, , 3];
		for (const value of [sparse, { a: sparse }, { a: [sparse] }, { a: [{ b: sparse }, 1n] }]) {
			expect(jsonText(value, { indent: 2 })).toBe(
				JSON.stringify(value, (_, v) => (typeof v === "bigint" ? String(v) : v), 2),
			);
		}
	});

	it("calls toJSON with the member's key, as JSON.stringify does", () => {
		const keys: string[] = [];
		const dated = {
			toJSON: (key: string) => {
				keys.push(key);
				return `at ${key}`;
			},
		};
		const value = { list: [{ when: dated, deeper: [[dated]] }] };
		expect(jsonText(value, { indent: 2 })).toBe(JSON.stringify(value, null, 2));
		expect(keys).toEqual(["when", "0", "when", "0"]);
	});
});

/**
 * What the table-driven spec (`test/spec/`) cannot hold as YAML text: bytes
 * that are not UTF-8 (read as U+FFFD, as pi reads them), and a log of a thousand bad lines. Every other row of
 * the log contract's "Bad input" table is a spec case.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/index.js";
import { assistant, HEADER, load, user, writeLog } from "../support/session.js";

const raw = (value: unknown) => JSON.stringify(value);
const GOOD = `${[HEADER, user("u1", null, "one"), assistant("a1", "u1", "two")].map(raw).join("\n")}\n`;

/** The ContextError of a strict load of `path` (fails the test if it loads). */
function strictError(path: string): ContextError {
	try {
		load(path, { strict: true });
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error(`expected loading ${path} to fail`);
}

describe("bytes that are not UTF-8", () => {
	it("skips a torn last line that ends inside a multi-byte character", () => {
		const path = writeLog("");
		const whole = Buffer.from(`${GOOD}${raw(assistant("a2", "a1", "café"))}`);
		// Cut inside the two bytes of "é".
		writeFileSync(path, whole.subarray(0, whole.indexOf(Buffer.from("é")) + 1));
		const bundle = load(path);
		expect(bundle.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(bundle.meta.leafId).toBe("a1");
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "torn_line", line: 4, severity: "warning" }),
		]);
	});

	it("reads a line with bytes that are not UTF-8 with each as U+FFFD, as pi does, and says so at its line", () => {
		const cut = Buffer.from([0xe2, 0x82]); // the first two of the three bytes of "€"
		const [head, tail] = raw(user("u2", "a1", "outXput")).split("X") as [string, string];
		for (const end of ["\n", ""]) {
			const path = writeLog("");
			const middle = Buffer.concat([Buffer.from(head), cut, Buffer.from(`${tail}\n`)]);
			const [a, b] = raw(user("u3", "u2", "aXb")).split("X") as [string, string];
			const last = Buffer.concat([Buffer.from(a), Buffer.from([0xff]), Buffer.from(`${b}${end}`)]);
			writeFileSync(path, Buffer.concat([Buffer.from(GOOD), middle, last]));
			const bundle = load(path);
			const texts = JSON.stringify(bundle.messages);
			expect(texts).toContain("out\uFFFDput");
			expect(texts).toContain("a\uFFFDb");
			expect(bundle.meta.diagnostics.map((d) => [d.code, d.line])).toEqual([
				["bad_utf8", 4],
				["bad_utf8", 5],
			]);
		}
	});

	it("refuses a middle line that is not UTF-8 in strict mode, with bad_utf8 and its line", () => {
		const path = writeLog("");
		writeFileSync(
			path,
			Buffer.concat([
				Buffer.from(GOOD),
				Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0xff, 0xfe, 0x7d, 0x0a]),
				Buffer.from(`${raw(user("u2", "a1", "ok"))}\n`),
			]),
		);
		const error = strictError(path);
		expect(error).toMatchObject({ code: "bad_utf8", file: path, line: 4 });
	});
});

describe("bounded diagnostics", () => {
	it("keeps the first 100 warnings whole and counts the rest per code", () => {
		const bad = Array.from({ length: 1000 }, (_, i) => `bad ${i}`);
		const path = writeLog([HEADER, user("u1", null, "hi"), ...bad]);
		const { diagnostics } = load(path).meta;
		expect(diagnostics).toHaveLength(101);
		expect(diagnostics.slice(0, 100).map((d) => d.line)).toEqual(
			Array.from({ length: 100 }, (_, i) => i + 3),
		);
		expect(diagnostics[100]).toMatchObject({ code: "more_diagnostics", file: path });
		expect(diagnostics[100]?.message).toMatch(/900 more warnings .*skipped_line: 900/);
	});
});

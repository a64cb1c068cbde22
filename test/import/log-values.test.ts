/**
 * `logValues`: the converted log as the values its lines parse to, without
 * the text. A plain entry is handed over as it is; anything `JSON.parse`
 * would give otherwise (an `undefined`, a number JSON cannot hold, an object
 * shared with an earlier entry, a record kept as its text) is its line's parse.
 */
import { describe, expect, it } from "vitest";
import {
	customEntry,
	entry,
	header,
	logBytes,
	logValues,
	writeLog,
} from "../../src/import/entries.js";
import { BufferPool } from "../../src/log/buffer-pool.js";

/** The values of `writeLog`'s lines: what the text path gives. */
function parsedLines(head: Record<string, unknown>, entries: Parameters<typeof writeLog>[1]) {
	const [first, ...rest] = writeLog(head, entries).split("\n").slice(0, -1);
	return { header: JSON.parse(first as string), entries: rest.map((l) => JSON.parse(l)) };
}

describe("logValues", () => {
	const head = header("s", "2026-01-01T00:00:00.000Z", "/w");

	it("hands a plain entry over as the object it is", () => {
		const plain = entry("message", "a", null, "2026-01-01T00:00:00.000Z", {
			message: { role: "user", content: [{ type: "text", text: "hi \ud800 é" }], n: 1.5 },
		});
		const values = logValues(head, [plain]);
		expect(values.entries[0]).toBe(plain);
		expect(values).toStrictEqual(parsedLines(head, [plain]));
	});

	it("gives what the line parses to for anything JSON would change", () => {
		const shared = { role: "user", content: "same" };
		const entries = [
			entry("message", "u", null, "t", {
				message: { role: "user", content: "x", gone: undefined },
			}),
			entry("message", "n", "u", "t", { message: { role: "user", content: "x", n: Number.NaN } }),
			entry("message", "z", "n", "t", { message: { role: "user", content: "x", n: -0 } }),
			entry("message", "d", "z", "t", { message: { role: "user", content: "x", at: new Date(0) } }),
			entry("message", "h", "d", "t", { message: { role: "user", content: [1, undefined, 3] } }),
			entry("message", "s1", "h", "t", { message: shared }),
			entry("message", "s2", "s1", "t", { message: shared }),
			customEntry("claude-code/x", "r", "s2", "t", undefined, '{"type":"x","k":[1,2]}'),
		];
		const values = logValues(head, entries);
		expect(values).toStrictEqual(parsedLines(head, entries));
		// Each one that JSON would change is a copy; the first holder of a shared object keeps it.
		expect(values.entries.map((v, i) => v === entries[i])).toEqual([
			false,
			false,
			false,
			false,
			false,
			true,
			false,
			false,
		]);
		expect(values.entries[5]?.message).toBe(shared);
		expect(values.entries[6]?.message).not.toBe(shared);
	});

	it("writes the log's bytes across buffers as one UTF-8 text of its lines", () => {
		// Lines of 1-, 2-, 3- and 4-byte characters and a lone surrogate, many (past one buffer) and one longer than a buffer.
		const texts = ["plain", "é".repeat(300), "→".repeat(500), "😀".repeat(700), "a\ud800b"];
		const entries = Array.from({ length: 3000 }, (_, i) =>
			entry("message", `m${i}`, i === 0 ? null : `m${i - 1}`, "t", {
				message: { role: "user", content: texts[i % texts.length] },
			}),
		);
		entries.push(
			entry("message", "long", "m2999", "t", {
				message: { role: "user", content: "😀".repeat(700_000) },
			}),
		);
		const chunks = logBytes(head, entries);
		expect(chunks.length).toBeGreaterThan(2);
		const lines = [JSON.stringify(head), ...entries.map((e) => JSON.stringify(e))];
		const expected = Buffer.from(`${lines.join("\n")}\n`, "utf8");
		expect(Buffer.concat(chunks).equals(expected)).toBe(true);
		expect(writeLog(head, entries)).toBe(expected.toString("utf8"));
	});

	it("writes the same bytes into a pool's buffers, and a recycled pool hands them out again", () => {
		const entries = Array.from({ length: 400 }, (_, i) =>
			entry("message", `m${i}`, i === 0 ? null : `m${i - 1}`, "t", {
				message: { role: "user", content: "→".repeat(1000) },
			}),
		);
		const pool = new BufferPool();
		const first = logBytes(head, entries, pool.take);
		const expected = Buffer.concat(logBytes(head, entries));
		expect(Buffer.concat(first).equals(expected)).toBe(true);
		const memory = new Set(first.map((c) => c.buffer));
		pool.recycle();
		const again = logBytes(head, entries, pool.take);
		expect(Buffer.concat(again).equals(expected)).toBe(true);
		expect(again.every((c) => memory.has(c.buffer))).toBe(true);
	});
});

/**
 * The default tolerance of the reader, row by row of the contract's "Bad
 * input" table: what pi skips or repairs is skipped or repaired here too, and
 * each time a warning names the file, the line (and column) and the reason;
 * `strict: true` refuses the same input with a located error.
 */
import { describe, expect, it } from "vitest";
import { ContextError, type ContextMessage } from "../src/index.js";
import { assistant, entry, HEADER, load, user, writeLog } from "./support/session.js";

const raw = (value: unknown) => JSON.stringify(value);
const texts = (messages: readonly ContextMessage[]) =>
	messages.map((m) => ("content" in m ? String(m.content) : m.role));

function strictError(path: string): ContextError {
	try {
		load(path, { strict: true });
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error("expected a strict load to fail");
}

describe("two JSON objects on one line", () => {
	const lines = [
		raw(HEADER),
		raw(user("u1", null, "one")),
		`${raw(assistant("a1", "u1", "two"))}${raw(user("u2", "a1", "three"))}`,
		raw(user("u3", "u2", "four")),
		raw(user("u4", "u3", "five")),
	];

	it("skips the line as pi does, with a warning naming line and column; later lines keep their numbers", () => {
		const path = writeLog(`${lines.join("\n")}\n`);
		const bundle = load(path);
		// pi skips the line: u3's parent u2 is gone, so u3 starts the branch.
		expect(texts(bundle.messages)).toEqual(["four", "five"]);
		const column = raw(assistant("a1", "u1", "two")).length + 1;
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "skipped_line", file: path, line: 3, column }),
			expect.objectContaining({ code: "unknown_parent", line: 4 }),
		]);
		expect(bundle.meta.diagnostics[0]?.message).toMatch(/two JSON values on one line/);
	});

	it("is a located error in strict mode", () => {
		const error = strictError(writeLog(`${lines.join("\n")}\n`));
		expect(error).toMatchObject({ code: "bad_json", line: 3 });
		expect(error.column).toBeGreaterThan(1);
		expect(error.message).not.toMatch(/position/);
	});
});

describe("the start of the file", () => {
	it("names a UTF-8 byte-order mark and reads on, strict or not", () => {
		const path = writeLog(`\ufeff${raw(HEADER)}\n${raw(user("u1", null, "hi"))}\n`);
		for (const strict of [false, true]) {
			const bundle = load(path, { strict });
			expect(texts(bundle.messages)).toEqual(["hi"]);
			expect(bundle.meta.diagnostics).toEqual([
				expect.objectContaining({ code: "byte_order_mark", line: 1 }),
			]);
			expect(bundle.meta.diagnostics[0]?.message).toMatch(/byte-order mark/);
		}
	});

	it("names a byte-order mark in the middle of the file as such", () => {
		const path = writeLog(`${raw(HEADER)}\n\ufeff${raw(user("u1", null, "hi"))}\n`);
		const [warning] = load(path).meta.diagnostics;
		expect(warning).toMatchObject({ code: "skipped_line", line: 2, column: 1 });
		expect(warning?.message).toMatch(/byte-order mark \(U\+FEFF\)/);
	});

	it("repairs a header without cwd or timestamp with a warning; strict refuses it", () => {
		const { cwd: _c, timestamp: _t, ...bare } = HEADER;
		const path = writeLog([bare, user("u1", null, "hi")]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["hi"]);
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "incomplete_header", line: 1 }),
		]);
		expect(bundle.meta.diagnostics[0]?.message).toMatch(/no cwd and no timestamp/);
		expect(strictError(path)).toMatchObject({ code: "bad_header", line: 1 });
	});

	it("ignores the same header line twice with a warning; strict refuses it", () => {
		const path = writeLog([HEADER, user("u1", null, "hi"), HEADER, user("u2", "u1", "ho")]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["hi", "ho"]);
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "repeated_header", line: 3 }),
		]);
		expect(strictError(path)).toMatchObject({ code: "repeated_header", line: 3 });
	});

	it("still requires a header", () => {
		expect(() => load(writeLog([user("u1", null, "hi")]))).toThrow(/session header/);
		expect(() => load(writeLog("\n\n"))).toThrow(ContextError);
	});
});

describe("structure", () => {
	it("takes the later of two entries with one id, naming both lines", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "first"),
			user("u2", "a1", "after the first"),
			assistant("a1", "u1", "second"),
			user("u3", "a1", "after the second"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages).at(-2)).not.toBe("after the first");
		expect(bundle.messages).toHaveLength(3);
		expect(JSON.stringify(bundle.messages)).toContain("second");
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "duplicate_id", line: 5 }),
		]);
		expect(bundle.meta.diagnostics[0]?.message).toMatch(/line 5 \(first on line 3\)/);
		expect(strictError(path)).toMatchObject({ code: "duplicate_id", line: 5 });
	});

	it("starts the branch at an entry whose parentId names no entry, the header's id included", () => {
		for (const parent of ["ghost", HEADER.id]) {
			const path = writeLog([HEADER, user("u1", null, "lost"), user("u2", parent, "found")]);
			const bundle = load(path);
			expect(texts(bundle.messages)).toEqual(["found"]);
			expect(bundle.meta.diagnostics).toEqual([
				expect.objectContaining({ code: "unknown_parent", line: 3 }),
			]);
			expect(strictError(path)).toMatchObject({ code: "unknown_parent", line: 3 });
		}
	});

	it("cuts a cycle with a warning and never hangs", () => {
		const path = writeLog([HEADER, user("a", "b", "A"), user("b", "a", "B")]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("b");
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "parent_cycle", line: 2 }),
		]);
		expect(strictError(path)).toMatchObject({ code: "parent_cycle" });
	});

	it("accepts a custom message without customType as pi does; strict refuses it", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			entry("c1", "u1", { type: "custom_message", content: "hidden prompt", display: false }),
		]);
		const bundle = load(path);
		expect(bundle.meta.diagnostics).toEqual([]);
		expect(bundle.messages.at(-1)).toMatchObject({ role: "custom", content: "hidden prompt" });
		expect(bundle.messages.at(-1)).not.toHaveProperty("customType");
		expect(strictError(path)).toMatchObject({ code: "bad_entry", line: 3 });
	});
});

describe("version 1: firstKeptEntryIndex counts parsed entries, as pi does", () => {
	const v1 = { type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
	const said = (text: string) => ({
		type: "message",
		timestamp: "2025-01-01T00:00:01.000Z",
		message: { role: "user", content: text },
	});

	it("does not count blank or unparsable lines", () => {
		// Parsed values: 0 header, 1 "one", 2 "two", 3 "three", 4 compaction, 5 "four".
		const path = writeLog(
			`${[
				raw(v1),
				raw(said("one")),
				"",
				"not json",
				raw(said("two")),
				raw(said("three")),
				raw({
					type: "compaction",
					timestamp: "2025-01-01T00:00:02.000Z",
					summary: "S",
					firstKeptEntryIndex: 2,
				}),
				raw(said("four")),
			].join("\n")}\n`,
		);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["compactionSummary", "two", "three", "four"]);
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "skipped_line", line: 4 }),
		]);
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

describe("timestamps", () => {
	it("warns when a derived message's timestamp is not ISO 8601", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			{
				...entry("b1", "u1", { type: "branch_summary", summary: "left", fromId: "x" }),
				timestamp: "yesterday",
			},
		]);
		const bundle = load(path);
		expect(bundle.messages.at(-1)).toMatchObject({ role: "branchSummary", timestamp: null });
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "bad_timestamp", line: 3 }),
		]);
	});
});

/**
 * What every import promises: the same source gives the same bytes; our own
 * format passes through unchanged (an imported log too); every record is
 * counted; bad input (a cut line, a line over the limit, a binary file)
 * gets a located warning or error, never a crash.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { sumCounts } from "../../src/import/accounting.js";
import { importSession } from "../../src/import/convert.js";
import { FIXTURES } from "./support.js";

const SHAPES = [
	"cc-tree.jsonl",
	"cc-merged-response.jsonl",
	"cc-parallel-calls.jsonl",
	"cc-compaction.jsonl",
	"cc-sidechain.jsonl",
	"cc-unknown-record.jsonl",
	"codex-rollback.jsonl",
	"codex-encrypted-compaction.jsonl",
	"codex-legacy.jsonl",
	"codex-tools.jsonl",
];
const OWN = join(import.meta.dirname, "../fixtures/examples/2-collapse-child.jsonl");

const bytesOf = (name: string) => readFileSync(join(FIXTURES, name));
const nonBlankLines = (b: Buffer) =>
	b
		.toString("utf8")
		.split("\n")
		.filter((l) => l.trim() !== "").length;

describe("import guarantees", () => {
	it("gives the same bytes for the same source, and counts every record once", () => {
		for (const name of SHAPES) {
			const a = importSession(bytesOf(name), name);
			const b = importSession(bytesOf(name), name);
			expect(a.text).toBe(b.text);
			const sum = sumCounts(a.counts);
			expect(sum.mapped + sum.custom + sum.warned, name).toBe(nonBlankLines(bytesOf(name)));
			expect(a.records).toBe(nonBlankLines(bytesOf(name)));
		}
	});

	it("passes our own format through unchanged, an imported log included", () => {
		const own = readFileSync(OWN);
		expect(importSession(own, OWN)).toMatchObject({ format: "theway", text: own.toString("utf8") });
		for (const name of SHAPES) {
			const once = importSession(bytesOf(name), name).text;
			const twice = importSession(Buffer.from(once), name);
			expect(twice.format).toBe("theway");
			expect(twice.text).toBe(once);
		}
		// Lines before the header that are no JSON (a comment, a torn line) are skipped as the reader skips them.
		for (const before of ["// an excerpt\n", '{"type":"sess\n', "\n\n"]) {
			const excerpt = Buffer.concat([Buffer.from(before), own]);
			expect(importSession(excerpt, OWN).format, before).toBe("theway");
			expect(importSession(excerpt, OWN, { from: "theway" }).format).toBe("theway");
		}
	});

	it("skips a cut last line and a line over the limit with located warnings", () => {
		const source = bytesOf("codex-rollback.jsonl").toString("utf8");
		const huge = `{"type":"event_msg","payload":{"type":"x","pad":"${"x".repeat(5000)}"}}`;
		const lines = source.trimEnd().split("\n");
		lines.splice(3, 0, huge);
		const damaged = `${lines.join("\n")}\n{"timestamp":"2026-01-02T10:09:00.000Z","type":"resp`;
		const result = importSession(Buffer.from(damaged), "damaged.jsonl", { maxRecordBytes: 4096 });
		expect(result.warnings.map((w) => [w.line, w.code])).toEqual([
			[4, "line_too_long"],
			[lines.length + 1, "torn_line"],
		]);
		expect(result.text).toContain("A better answer");
	});

	it("reads a byte-order mark alone on a line as blank, and warns of a line that is not UTF-8", () => {
		const lines = bytesOf("cc-tree.jsonl").toString("utf8").trimEnd().split("\n");
		const clean = importSession(Buffer.from(lines.join("\n")), "clean.jsonl");
		const withBom = importSession(Buffer.from(`\ufeff\n${lines.join("\n")}`), "bom.jsonl");
		expect(withBom.warnings).toEqual([]);
		const messages = (text: string) =>
			text.split("\n").filter((l) => l.includes('"type":"message"'));
		expect(messages(withBom.text)).toEqual(messages(clean.text));
		expect(messages(clean.text).length).toBeGreaterThan(0);
		// A byte that is no UTF-8 inside a string of line 3: kept (as U+FFFD), and said.
		const at =
			Buffer.from(`${lines.slice(0, 2).join("\n")}\n`).length +
			(lines[2] as string).indexOf('"uuid"');
		const bytes = Buffer.from(lines.join("\n"));
		const damaged = Buffer.concat([
			bytes.subarray(0, at + 1),
			Buffer.from([0xff]),
			bytes.subarray(at + 1),
		]);
		const result = importSession(damaged, "bad.jsonl");
		const utf8 = result.warnings.filter((w) => /not valid UTF-8/.test(w.message));
		expect(utf8.map((w) => [w.line, w.code])).toEqual([[3, "import_lossy"]]);
	});

	it("refuses a binary file or one of no known format with a located error", () => {
		const binary = Buffer.from([
			0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10, 0x0a,
		]);
		const attempt = (bytes: Buffer) => {
			try {
				importSession(bytes, "x.bin");
			} catch (error) {
				return error as ContextError;
			}
			return undefined;
		};
		expect(attempt(binary)).toMatchObject({ code: "unknown_format", file: "x.bin" });
		expect(attempt(Buffer.from('{"hello":"world"}\n'))).toMatchObject({
			code: "unknown_format",
			line: 1,
		});
		expect(attempt(Buffer.alloc(0))).toBeInstanceOf(ContextError);
	});

	it("reads a named format even when detection would not", () => {
		const source = bytesOf("codex-legacy.jsonl");
		expect(importSession(source, "x", { from: "codex" }).format).toBe("codex");
	});
});

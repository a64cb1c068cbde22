/**
 * The log reader's hook: a Claude Code or Codex file given to the service
 * (sync or async, from a path or standard input's bytes) is converted in
 * memory; kept open, it is read again when it grows, and not re-read while
 * it does not. A file of no known format still reports its missing header.
 */
import {
	appendFileSync,
	copyFileSync,
	readFileSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService, loadContext } from "../../src/library.js";
import { tempDir } from "../support/temp.js";
import { FIXTURES, textOf } from "./support.js";

const copy = (name: string) => {
	const file = join(tempDir("theway-import-read-"), name);
	copyFileSync(join(FIXTURES, name), file);
	return file;
};

describe("reading a foreign file directly", () => {
	it("loads asynchronously through the library's load", async () => {
		const bundle = await loadContext(join(FIXTURES, "codex-rollback.jsonl"), { strict: true });
		expect(bundle.messages.map(textOf)).toEqual([
			"First question",
			"First answer",
			"Second question, asked again",
			"A better answer",
		]);
		expect(bundle.meta.sessionId).toBe("cx-s1");
	});

	it("reads a kept-open file again when it grows, and reuses it while it does not", async () => {
		const file = copy("codex-rollback.jsonl");
		const when = 1_700_000_000;
		utimesSync(file, when, when);
		const service = new ContextService();
		const first = service.loadSync(file);
		// The same size and time, other bytes: a kept-open file is not read again, so this goes unseen.
		const size = statSync(file).size;
		writeFileSync(file, "x".repeat(size));
		utimesSync(file, when, when);
		expect(service.loadSync(file).messages).toEqual(first.messages);
		copyFileSync(join(FIXTURES, "codex-rollback.jsonl"), file);
		appendFileSync(
			file,
			`${JSON.stringify({ timestamp: "2026-01-02T10:09:00.000Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "One more" }] } })}\n`,
		);
		const grown = await service.load(file);
		expect(grown.messages.map(textOf).at(-1)).toBe("One more");
	});

	it("still reports a missing header for a file of no known format", () => {
		const file = join(tempDir("theway-import-read-"), "other.jsonl");
		writeFileSync(file, '{"hello":"world"}\n');
		expect(() => new ContextService().loadSync(file)).toThrow(
			/line 1|:1: the first JSON line must be the session header/,
		);
	});

	it("strict, refuses a file with a line it cannot read, located there, as a log of ours", async () => {
		const file = join(tempDir("theway-import-read-"), "damaged.jsonl");
		const lines = readFileSync(join(FIXTURES, "cc-tree.jsonl"), "utf8").split("\n");
		lines.splice(2, 0, '{"broken');
		writeFileSync(file, lines.join("\n"));
		const lenient = new ContextService().loadSync(file);
		expect(lenient.meta.diagnostics.map((d) => [d.code, d.line, d.column])).toContainEqual([
			"bad_json",
			3,
			9,
		]);
		const strict = new ContextService({ strict: true });
		expect(() => strict.loadSync(file)).toThrow(
			expect.objectContaining({ code: "bad_json", file, line: 3, column: 9 }),
		);
		await expect(loadContext(file, { strict: true })).rejects.toThrow(/:3:9: not valid JSON: /);
		// A record type the converter does not know stays a warning, as an unknown entry type does.
		const unknown = join(tempDir("theway-import-read-"), "unknown.jsonl");
		lines.splice(2, 1, '{"type": "brand-new-record", "sessionId": "cc-s1"}');
		writeFileSync(unknown, lines.join("\n"));
		const loaded = new ContextService({ strict: true }).loadSync(unknown);
		expect(loaded.meta.diagnostics.map((d) => [d.code, d.line])).toContainEqual([
			"unknown_record",
			3,
		]);
		// An undamaged file of the same format loads under strict as it is.
		expect(
			new ContextService({ strict: true }).loadSync(join(FIXTURES, "cc-tree.jsonl")).messages
				.length,
		).toBeGreaterThan(0);
	});
});

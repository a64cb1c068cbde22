/**
 * The log reader's hook: a Claude Code or Codex file given to the service
 * (sync or async, from a path or standard input's bytes) is converted in
 * memory; kept open, it is read again when it grows, and not re-read while
 * it does not. A file of no known format still reports its missing header.
 */
import { appendFileSync, copyFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
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
			/line 1|:1: the first line must be the session header/,
		);
	});
});

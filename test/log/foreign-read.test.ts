/**
 * A foreign file (Claude Code, Codex) read whole is converted from the
 * read's own buffer, not a copy of it: the buffer is handed over, given back
 * once the file is converted, and serves the next read. Held to what the
 * copying reads give (the asynchronous read gathers a copy), file after file
 * in one process, and when the file grows between its size taken and its
 * read (the read then goes on into another buffer, and the handed-over bytes
 * must stay as they were).
 */
import { appendFileSync, copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { readForeign } from "../../src/import/foreign.js";
import { ContextService } from "../../src/index.js";
import { OpenLog } from "../../src/log/open-log.js";
import { projectBranch } from "../../src/session/project.js";
import { SessionTree } from "../../src/session/tree.js";
import { FIXTURES } from "../import/support.js";
import { tempDir } from "../support/temp.js";

const FOREIGN = readdirSync(FIXTURES)
	.filter((f) => f.endsWith(".jsonl"))
	.map((f) => join(FIXTURES, f));

/** What a caller observes of a load: the messages, the warnings, the session's metadata. */
const observed = (bundle: { messages: unknown; meta: unknown }) =>
	JSON.stringify([bundle.messages, bundle.meta]);

/** The file's projection as the log reader gives it, the sink told of the size first (`onSize`). */
function project(path: string, onSize: () => void = () => undefined): string {
	const log = new OpenLog(
		path,
		(entries, name) => {
			const tree = new SessionTree(entries, name);
			const expect = tree.expect?.bind(tree);
			tree.expect = (n: number) => {
				onSize();
				expect?.(n);
			};
			return tree;
		},
		{ foreign: readForeign },
	);
	expect(log.readSync()).toBe(true);
	expect(log.isForeign).toBe(true);
	const frame = (summary: string) => ({ text: summary, diagnostics: [] });
	const p = projectBranch(log.sink, log.header, frame);
	return JSON.stringify([p.messages, p.entryIds, log.diagnostics()]);
}

describe("a foreign file read whole", () => {
	it("has the fixtures of both formats to read", () => {
		const names = FOREIGN.map((f) => f.split("/").at(-1) ?? "");
		expect(names.some((n) => n.startsWith("cc-"))).toBe(true);
		expect(names.some((n) => n.startsWith("codex-"))).toBe(true);
	});

	it("converts as the copying read converts, file after file in one process", async () => {
		const sync = new ContextService();
		const seen = FOREIGN.map((file) => observed(sync.loadSync(file, { virtualize: false })));
		// Each buffer handed over went back and served the next file: read them all again, backwards.
		const again = new ContextService();
		const backwards = [...FOREIGN]
			.reverse()
			.map((file) => observed(again.loadSync(file, { virtualize: false })))
			.reverse();
		expect(backwards).toEqual(seen);
		for (const [i, file] of FOREIGN.entries()) {
			const copied = await new ContextService().load(file, { virtualize: false });
			expect(observed(copied), file).toBe(seen[i]);
		}
	});

	it("gives the buffer back: the next file of the size reads into it, with no new one", () => {
		const dir = tempDir("theway-foreign-read-");
		const source = FOREIGN.find((f) => f.endsWith("cc-tree.jsonl")) as string;
		const files = ["a.jsonl", "b.jsonl"].map((name, i) => {
			const path = join(dir, name);
			copyFileSync(source, path);
			// Over 64 KiB, so the read takes a buffer of the file's size; the same size twice.
			const text = `${"ab"[i]}`.repeat(80_000);
			appendFileSync(
				path,
				`${JSON.stringify({ type: "user", uuid: "big", parentUuid: null, sessionId: "cc-s1", timestamp: "2026-01-03T00:00:00.000Z", message: { role: "user", content: text } })}\n`,
			);
			return path;
		});
		project(files[0] as string);
		const alloc = vi.spyOn(Buffer, "allocUnsafeSlow");
		try {
			const read = project(files[1] as string);
			expect(read).toContain("b".repeat(80_000));
			const large = alloc.mock.calls.filter(([size]) => size >= 80_000);
			expect(large).toEqual([]);
		} finally {
			alloc.mockRestore();
		}
	});

	it("keeps the bytes taken when the file grew after its size was taken", () => {
		const source = FOREIGN.find((f) => f.endsWith("cc-tree.jsonl")) as string;
		const path = join(tempDir("theway-foreign-read-"), "grown.jsonl");
		copyFileSync(source, path);
		const record = (uuid: string, parentUuid: string | null, content: string) => ({
			type: "user",
			uuid,
			parentUuid,
			sessionId: "cc-s1",
			timestamp: "2026-01-03T00:00:00.000Z",
			message: { role: "user", content },
		});
		// Over the least a read takes at once (64 KiB): the first read stops at the size taken.
		appendFileSync(path, `${JSON.stringify(record("long", null, "x".repeat(80_000)))}\n`);
		const later = record("grown-after-stat", "long", "appended between the size and the read");
		let grown = false;
		const read = project(path, () => {
			if (grown) return;
			grown = true;
			appendFileSync(path, `${JSON.stringify(later)}\n`);
		});
		expect(grown).toBe(true);
		// The file as it ended up, read with nothing in between.
		expect(read).toBe(project(path));
		expect(read).toContain("appended between the size and the read");
	});
});

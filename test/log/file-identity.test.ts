/**
 * A kept-open session must notice a file that is no longer the one it read:
 * rewritten with the same length, replaced on the same inode, or changed
 * under entries it let go (which are validated again when read back).
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContextError, ContextService } from "../../src/index.js";
import { OpenLog } from "../../src/log/open-log.js";
import { SessionTree } from "../../src/session/tree.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";

const fresh = (path: string, options = {}) =>
	JSON.stringify(new ContextService(options).loadSync(path));

/** A fixed modification time, in whole seconds, that a rewrite can put back exactly. */
const TIME = 1_700_000_000;

/** Rewrites `path` in place (same inode) with the time {@link writeTimed} gave it. */
function rewriteKeepingTime(path: string, text: string): void {
	writeFileSync(path, text);
	utimesSync(path, TIME, TIME);
}

function writeTimed(lines: unknown[]): string {
	const path = writeLog(lines);
	utimesSync(path, TIME, TIME);
	return path;
}

/**
 * A log whose line 3 lies past the first 4 KiB and before the last 64 bytes,
 * so a same-length change there keeps the file's head, tail, size and time.
 */
const padded = () => [
	HEADER,
	user("p0", null, "x".repeat(5000)),
	user("u1", "p0", "hello"),
	assistant("a1", "u1", "world"),
];

describe("a kept-open session and a rewritten file", () => {
	it("reads a same-length rewrite afresh", () => {
		const path = writeLog([HEADER, user("u1", null, "hello"), assistant("a1", "u1", "world")]);
		const service = new ContextService();
		service.loadSync(path);
		const text = readFileSync(path, "utf8").replace("hello", "HELLO");
		writeFileSync(path, text);
		expect(JSON.stringify(service.loadSync(path))).toBe(fresh(path));
		expect(JSON.stringify(service.loadSync(path).messages)).toContain("HELLO");
	});

	it("reads afresh a file replaced on the same inode by another session of the same size or larger", () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const service = new ContextService();
		service.loadSync(path);
		const ino = statSync(path).ino;
		const other = `${JSON.stringify({ ...HEADER, id: "session-other" })}\n${JSON.stringify(user("x1", null, "other one"))}\n${JSON.stringify(user("x2", "x1", "two"))}\n`;
		writeFileSync(path, other); // truncates and refills the same inode
		expect(statSync(path).ino).toBe(ino);
		const bundle = service.loadSync(path);
		expect(bundle.meta.sessionId).toBe("session-other");
		expect(JSON.stringify(bundle)).toBe(fresh(path));
	});

	it("validates entries read back after they were let go, and reloads when one changed", () => {
		const path = writeTimed(padded());
		const service = new ContextService({ retainBytes: 0 });
		service.loadSync(path);
		// Line 3 now holds content 42 (invalid), at the same length; then a line is appended,
		// so the file grew as an append would, with the same head and the same bytes before.
		const text = readFileSync(path, "utf8").replace('"content":"hello"', '"content":42     ');
		rewriteKeepingTime(path, `${text}${JSON.stringify(user("u2", "a1", "more"))}\n`);
		const bundle = service.loadSync(path);
		expect(JSON.stringify(bundle.messages)).not.toContain('"content":42');
		expect(JSON.stringify(bundle.messages)).not.toContain("hello");
		expect(JSON.stringify(bundle)).toBe(fresh(path, { retainBytes: 0 }));
		// Its place in the tree is kept: line 4 hangs from line 3's parent, no orphan.
		expect(bundle.meta.diagnostics).toEqual([
			expect.objectContaining({ code: "skipped_line", line: 3 }),
		]);
	});

	it("reports a changed line read back as a located file_replaced error, not a SyntaxError", () => {
		const path = writeTimed(padded());
		const log = new OpenLog(path, (entries, name) => new SessionTree(entries, name), {
			retainBytes: 0,
		});
		log.readSync();
		// Line 3 is no longer JSON (same length, head, tail and time).
		rewriteKeepingTime(path, readFileSync(path, "utf8").replace('"hello"', '"hel"o"'));
		let error: unknown;
		try {
			log.entry(1);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(ContextError);
		expect(error).toMatchObject({ code: "file_replaced", file: path, line: 3 });
	});
});

/**
 * The preview's session list in its orders: by name, size, date and message
 * count, ties in name order, with the query applied first; message counts
 * taken across the reader's block boundaries, and taken again once a file
 * changes.
 */
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionCatalog } from "../../src/preview/sessions.js";
import { HEADER, user } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const jsonl = (lines: readonly unknown[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

/** `n` user messages, each `size` characters long. */
function messages(n: number, size = 5): unknown[] {
	return Array.from({ length: n }, (_, i) =>
		user(`u${i}`, i === 0 ? null : `u${i - 1}`, "x".repeat(size)),
	);
}

function folder(): string {
	const dir = tempDir("theway-sessions-");
	mkdirSync(join(dir, "sub"));
	writeFileSync(join(dir, "b.jsonl"), jsonl([HEADER, ...messages(3, 2000)]));
	writeFileSync(join(dir, "a.jsonl"), jsonl([HEADER, ...messages(5)]));
	writeFileSync(join(dir, "sub", "c.jsonl"), jsonl([HEADER, ...messages(3)]));
	const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
	utimesSync(join(dir, "a.jsonl"), at(1), at(1));
	utimesSync(join(dir, "b.jsonl"), at(3), at(3));
	utimesSync(join(dir, "sub", "c.jsonl"), at(2), at(2));
	return dir;
}

const ids = (catalog: SessionCatalog, sort: Parameters<SessionCatalog["page"]>[3], q = "") =>
	catalog.page(0, 10, q, sort).items.map((i) => i.id);

describe("the session list's orders", () => {
	it("by name, size (largest first), date (newest first), messages (most first, ties by name)", () => {
		const catalog = new SessionCatalog(folder());
		expect(ids(catalog, "name")).toEqual(["a.jsonl", "b.jsonl", "sub/c.jsonl"]);
		expect(ids(catalog, "size")[0]).toBe("b.jsonl");
		expect(ids(catalog, "date")).toEqual(["b.jsonl", "sub/c.jsonl", "a.jsonl"]);
		expect(ids(catalog, "messages")).toEqual(["a.jsonl", "b.jsonl", "sub/c.jsonl"]);
		expect(catalog.page(0, 10, "", "messages").items.map((i) => i.messages)).toEqual([5, 3, 3]);
		expect(ids(catalog, "messages", "sub")).toEqual(["sub/c.jsonl"]);
	});

	it("lists each session's size and date; counts messages only when ordered by them", () => {
		const catalog = new SessionCatalog(folder());
		const [first] = catalog.page(0, 1, "", "name").items;
		expect(first?.size).toBeGreaterThan(0);
		expect(first?.mtime).toBe(Date.UTC(2026, 0, 1) + 1000);
		expect(first?.messages).toBeUndefined();
	});

	it("counts across the reader's 1 MiB blocks, and again after the file changes", () => {
		const dir = tempDir("theway-sessions-");
		const file = join(dir, "big.jsonl");
		writeFileSync(file, jsonl([HEADER, ...messages(700, 3000)])); // about 2 MiB
		const count = () => new SessionCatalog(dir).page(0, 1, "", "messages").items[0]?.messages;
		expect(count()).toBe(700);
		appendFileSync(file, jsonl(messages(1)));
		expect(count()).toBe(701);
		const catalog = new SessionCatalog(dir);
		expect(catalog.page(0, 1, "", "messages").items[0]?.messages).toBe(701);
		appendFileSync(file, jsonl(messages(2)));
		catalog.rescan();
		expect(catalog.page(0, 1, "", "messages").items[0]?.messages).toBe(703);
	});
});

describe("the folders searched", () => {
	it("lists a log five folders deep, and names the folders too deep to search", () => {
		const dir = tempDir("theway-sessions-deep-");
		const five = join(dir, "a", "b", "c", "d", "e");
		mkdirSync(five, { recursive: true });
		writeFileSync(join(five, "deep.jsonl"), jsonl([HEADER, ...messages(1)]));
		const nine = join(dir, "1", "2", "3", "4", "5", "6", "7", "8", "9");
		mkdirSync(nine, { recursive: true });
		writeFileSync(join(nine, "deeper.jsonl"), jsonl([HEADER, ...messages(1)]));
		const catalog = new SessionCatalog(dir);
		expect(ids(catalog, "name")).toEqual(["a/b/c/d/e/deep.jsonl"]);
		expect(catalog.page(0, 10).notSearched).toEqual(["1/2/3/4/5/6/7/8/9"]);
	});
});

/** The id table: every id found at its index, duplicates reported, growth keeps everything. */
import { describe, expect, it } from "vitest";
import { IdIndex } from "../src/session/id-index.js";

describe("IdIndex", () => {
	it("finds every id it was given, across many growths, and nothing else", () => {
		const ids: string[] = [];
		const index = new IdIndex(ids);
		for (let i = 0; i < 50_000; i++) {
			const id = `id-${(i * 7919) % 100_003}`;
			expect(index.set(id, i)).toBeUndefined();
			ids.push(id);
		}
		for (let i = 0; i < ids.length; i += 97) expect(index.get(ids[i] as string)).toBe(i);
		expect(index.get("id-missing")).toBeUndefined();
		expect(index.get("")).toBeUndefined();
	});

	it("returns the earlier index of a duplicate and takes the later one, as pi does", () => {
		const ids = ["a", "b", "a"];
		const index = new IdIndex(ids);
		expect(index.set("a", 0)).toBeUndefined();
		index.set("b", 1);
		expect(index.set("a", 2)).toBe(0);
		expect(index.get("a")).toBe(2);
	});

	it("tells apart ids whose hashes collide in the table", () => {
		const ids = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(0x4e00 + i));
		const index = new IdIndex(ids);
		for (const [i, id] of ids.entries()) index.set(id, i);
		for (const [i, id] of ids.entries()) expect(index.get(id)).toBe(i);
	});
});

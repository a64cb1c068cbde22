/** The id table: every id found at its index, duplicates reported, growth keeps everything. */
import { describe, expect, it } from "vitest";
import { IdIndex, SMALL_MAX } from "../../src/session/id-index.js";

/** The typed table from the first id (a small index starts with a Map). */
const TABLE = { smallMax: 0 };

describe("IdIndex", () => {
	it("finds every id it was given, across many growths, and nothing else", () => {
		const ids: string[] = [];
		const index = new IdIndex(ids, TABLE);
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
		for (const options of [{}, TABLE]) {
			const ids = ["a", "b", "a"];
			const index = new IdIndex(ids, options);
			expect(index.set("a", 0)).toBeUndefined();
			index.set("b", 1);
			expect(index.set("a", 2)).toBe(0);
			expect(index.get("a")).toBe(2);
		}
	});

	it("moves from its Map to the table past the small size, keeping every id and the latest duplicate", () => {
		const ids: string[] = [];
		const index = new IdIndex(ids);
		const n = SMALL_MAX + 1000;
		for (let i = 0; i < n; i++) {
			// Integer-like ids, and a duplicate of an early id on each side of the move.
			const id = i === 10 || i === n - 1 ? "0" : String(i * 65_536);
			expect(index.set(id, i)).toBe(id === "0" && i > 0 ? (i === 10 ? 0 : 10) : undefined);
			ids.push(id);
		}
		expect(index.probes).toBeGreaterThan(0); // the table answers now
		expect(index.get("0")).toBe(n - 1);
		for (let i = 1; i < n - 1; i += 101) if (i !== 10) expect(index.get(ids[i] as string)).toBe(i);
		expect(index.get(String(n * 65_536))).toBeUndefined();
		expect(index.get("")).toBeUndefined();
	});

	it("takes the table at once when more ids than a Map holds are expected", () => {
		const ids = ["a", "b"];
		const told = new IdIndex(ids);
		told.expect(SMALL_MAX + 1);
		const untold = new IdIndex(ids);
		for (const index of [told, untold]) {
			index.set("a", 0);
			index.set("b", 1);
			expect(index.get("b")).toBe(1);
		}
		expect(told.probes).toBeGreaterThan(0);
		expect(untold.probes).toBe(0);
	});

	it("tells apart ids whose hashes collide in the table", () => {
		const ids = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(0x4e00 + i));
		const index = new IdIndex(ids, TABLE);
		for (const [i, id] of ids.entries()) index.set(id, i);
		for (const [i, id] of ids.entries()) expect(index.get(id)).toBe(i);
	});
});

/** The table's hash before it was keyed: FNV-1a over UTF-16 code units, from the standard basis. */
function fnv1a(id: string, from = 0x811c9dc5): number {
	let h = from;
	for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
	return h;
}

/**
 * 2^stages ids that all share one FNV-1a hash. At each stage, two 2-character
 * blocks take the running hash to the same value: two first characters whose
 * products agree on the high 16 bits (a birthday search), and second
 * characters that cancel the low 16 bits. Then every choice of one block per
 * stage collides.
 */
function fnvMulticollision(stages: number): string[] {
	const P = 0x01000193;
	let state = 0x811c9dc5;
	const pairs: [string, string][] = [];
	for (let s = 0; s < stages; s++) {
		const byHigh = new Map<number, number>();
		for (let c1 = 0x100; ; c1++) {
			const x = Math.imul(state ^ c1, P);
			const other = byHigh.get(x >>> 16);
			if (other === undefined) {
				byHigh.set(x >>> 16, c1);
				continue;
			}
			const y = Math.imul(state ^ other, P);
			const a = String.fromCharCode(other, 0x41);
			const b = String.fromCharCode(c1, 0x41 ^ (x & 0xffff) ^ (y & 0xffff));
			pairs.push([a, b]);
			state = fnv1a(a, state);
			break;
		}
	}
	let ids = [""];
	for (const [a, b] of pairs) ids = ids.flatMap((id) => [id + a, id + b]);
	return ids;
}

describe("IdIndex against floods", () => {
	it("does linear work on 32,768 ids that share one FNV-1a hash", () => {
		const ids = fnvMulticollision(15);
		expect(ids).toHaveLength(32_768);
		expect(new Set(ids.map((id) => fnv1a(id))).size).toBe(1);
		const index = new IdIndex(ids, TABLE);
		for (const [i, id] of ids.entries()) index.set(id, i);
		for (const [i, id] of ids.entries()) expect(index.get(id)).toBe(i);
		// Under the old hash this was about n²/2 = 5e8 probes.
		expect(index.probes).toBeLessThan(ids.length * 10);
	});

	it("moves to a Map when lookups run long, whatever the hash", () => {
		const ids = Array.from({ length: 20_000 }, (_, i) => `id-${i}`);
		const index = new IdIndex(ids, { ...TABLE, hash: () => 7 });
		for (const [i, id] of ids.entries()) index.set(id, i);
		expect(index.flooded).toBe(true);
		for (const [i, id] of ids.entries()) expect(index.get(id)).toBe(i);
		expect(index.get("absent")).toBeUndefined();
		expect(index.set("id-5", 20_000)).toBe(5);
		expect(index.get("id-5")).toBe(20_000);
		expect(index.probes).toBeLessThan(100 * 64);
	});

	it("keeps every id when the table floods while they move in from the Map", () => {
		const ids = Array.from({ length: SMALL_MAX + 10 }, (_, i) => `id-${i}`);
		const index = new IdIndex(ids, { hash: () => 7 });
		for (const [i, id] of ids.entries()) index.set(id, i);
		expect(index.flooded).toBe(true);
		for (let i = 0; i < ids.length; i += 97) expect(index.get(ids[i] as string)).toBe(i);
		expect(index.get(ids.at(-1) as string)).toBe(ids.length - 1);
		expect(index.probes).toBeLessThan(100 * 64);
	});
});

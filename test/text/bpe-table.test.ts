/**
 * The ranks table file (src/text/bpe-table.ts): a table read back holds
 * the ranks parsing gives and counts as they do; the build's own tables
 * are current; a table of another format version, damaged, cut short, or
 * built from another source (or from this one before it changed) is
 * refused, and the counter falls back to parsing; a source is known by its
 * modification time, its package's version, or else its checksum.
 */
import {
	copyFileSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bpeCounter, bpeFiles } from "../../src/text/bpe.js";
import { parseTiktoken, RANK_MASK, type Ranks } from "../../src/text/bpe-ranks.js";
import {
	buildRanksTable,
	type RanksSource,
	readRanksTable,
	writeRanksTable,
} from "../../src/text/bpe-table.js";

const dir = mkdtempSync(join(tmpdir(), "theway-context-bpe-table-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Texts of every kind the counter treats apart: ASCII, other scripts, a byte-order mark, a long merge. */
const TEXTS = [
	"function merge(a, b) { return a.concat(b); }\n\n",
	"Ωμέγα 中文 출장안마 don't HELLOworld 😀",
	"\ufeffusing namespace std;",
	"a".repeat(300),
	"xq7Zk2vP9wLmN4rT8yB1cF6hJ3dG5sA0eU",
];

/** Each array of `ranks` as bytes (hex), and the mask: equal when the tables are. */
function plain(ranks: Ranks) {
	const hex = (a: Uint8Array | Uint32Array | Int32Array) =>
		Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");
	const { bytes, ends, slots, mask } = ranks;
	return [bytes, ends, slots].map(hex).concat(String(mask));
}

let sources = 0;
/** A small `.tiktoken` file of our own (the single bytes, then a few merges), of package version `version`. */
function smallSource(name: string, extra = "aGVsbG8=", version = "1.0.0"): RanksSource {
	const lines = Array.from(
		{ length: 256 },
		(_, b) => `${Buffer.from([b]).toString("base64")} ${b}`,
	);
	lines.push("aGU= 256", "bGw= 257", `${extra} 258`);
	const file = join(dir, name);
	writeFileSync(file, `${lines.join("\n")}\n`);
	// Each file a modification time of its own: a table's source is known by its version or checksum.
	const time = new Date(Date.UTC(2001, 0, 1 + sources++));
	utimesSync(file, time, time);
	return { file, version };
}

describe("parsing a ranks file", () => {
	it("places each token at its rank, a rank left out empty, and refuses ranks that go down", () => {
		const ranks = parseTiktoken(Buffer.from("YQ== 0\nYg== 1\nYWI= 5\n"));
		expect(Buffer.from(ranks.bytes).toString()).toBe("abab");
		expect([...ranks.ends]).toEqual([0, 1, 2, 2, 2, 2, 4]);
		expect([...ranks.slots].filter((s) => s !== 0).map((s) => s & RANK_MASK)).toEqual(
			expect.arrayContaining([1, 2, 6]),
		);
		expect(ranks.slots.filter((s) => s !== 0).length).toBe(3);
		expect(() => parseTiktoken(Buffer.from("YQ== 0\nYg== 2\nYWI= 1\n"))).toThrow(
			"ranks file, line 3: rank 1 after rank 2",
		);
	});
});

describe("the ranks table file", () => {
	for (const name of ["o200k", "cl100k"] as const) {
		it(`holds ${name}'s ranks as parsing gives them, and counts as they do`, () => {
			const { source } = bpeFiles(name);
			const table = join(dir, `${name}.bin`);
			writeRanksTable(table, buildRanksTable(source));
			const read = readRanksTable(table, source);
			expect(read).toBeDefined();
			const parsed = parseTiktoken(readFileSync(source.file));
			expect(plain(read as Ranks)).toEqual(plain(parsed));
			const fromTable = bpeCounter(name, table);
			const fromSource = bpeCounter(name, join(dir, "none.bin"));
			for (const t of TEXTS) expect(fromTable(t)).toBe(fromSource(t));
		});

		it(`the build's ${name} table is current (npm run build writes it)`, () => {
			const { source, table } = bpeFiles(name);
			expect(readRanksTable(table, source)).toBeDefined();
		});
	}

	it("is refused when damaged, cut short, of another version, or of another source", () => {
		const source = smallSource("small.tiktoken");
		const good = buildRanksTable(source);
		const table = join(dir, "small.bin");
		writeRanksTable(table, good);
		expect(readRanksTable(table, source)).toBeDefined();
		const refused = (data: Uint8Array, src = source) => {
			writeFileSync(table, data);
			return readRanksTable(table, src) === undefined;
		};
		const flipped = (at: number) => {
			const copy = new Uint8Array(good);
			copy[at] = (copy[at] as number) ^ 1;
			return copy;
		};
		expect(refused(flipped(good.length - 1))).toBe(true); // a token's byte
		expect(refused(flipped(100))).toBe(true); // where a token ends
		expect(refused(flipped(0))).toBe(true); // the magic
		expect(refused(flipped(12))).toBe(true); // the format version
		expect(refused(good.subarray(0, good.length - 4))).toBe(true);
		expect(refused(good.subarray(0, 20))).toBe(true);
		expect(refused(new Uint8Array(0))).toBe(true);
		// Of another version of the package: the same size, another checksum; another size; none.
		expect(refused(good, smallSource("other.tiktoken", "d29ybGQ=", "1.0.1"))).toBe(true);
		expect(refused(good, smallSource("longer.tiktoken", "aGVsbG8gd29ybGQ="))).toBe(true);
		expect(refused(good, { file: join(dir, "missing.tiktoken"), version: "1.0.0" })).toBe(true);
	});

	it("knows its source by its modification time, its package's version, or else its checksum", () => {
		const source = smallSource("copied.tiktoken");
		const table = join(dir, "copied.bin");
		writeRanksTable(table, buildRanksTable(source));
		const copy = join(dir, "copy.tiktoken");
		copyFileSync(source.file, copy);
		const time = new Date(Date.UTC(2002, 0, 1));
		utimesSync(copy, time, time);
		// Another time, the same version: an installed copy of the same package.
		expect(readRanksTable(table, { file: copy, version: "1.0.0" })).toBeDefined();
		// Another time and another version: the same bytes, known by their checksum.
		expect(readRanksTable(table, { file: copy, version: "2.0.0" })).toBeDefined();
		expect(readRanksTable(table, { file: copy, version: "" })).toBeDefined();
		writeFileSync(copy, readFileSync(source.file, "utf8").replace("bGw= 257", "bGw= 259"));
		utimesSync(copy, time, time);
		expect(readRanksTable(table, { file: copy, version: "2.0.0" })).toBeUndefined();
		expect(
			readRanksTable(table, { file: copy, version: "1.0.0-and-a-very-long-tag" }),
		).toBeUndefined();
	});

	it("a refused table leaves the counter to parse the source", () => {
		const { source } = bpeFiles("o200k");
		const table = join(dir, "o200k-damaged.bin");
		const data = buildRanksTable(source);
		// A stretch of the hash table and the token bytes zeroed: lookups in it would miss.
		data.fill(0, data.length - 2_000_000, data.length - 1_000_000);
		writeRanksTable(table, data);
		expect(readRanksTable(table, source)).toBeUndefined();
		const fromSource = bpeCounter("o200k", join(dir, "none.bin"));
		const counted = bpeCounter("o200k", table);
		for (const t of TEXTS) expect(counted(t)).toBe(fromSource(t));
	});
});

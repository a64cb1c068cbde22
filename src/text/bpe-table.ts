/**
 * The ranks of a byte-pair encoding as the counter (./bpe.ts) searches them,
 * and the file they are kept in. Parsing a `.tiktoken` file (one base64
 * token and its rank a line) and building the hash table over it cost
 * ~50 ms of every process that counts, so `npm run build` writes the
 * finished table of each encoding into `dist/tokenizer/NAME.bin`
 * (scripts/write-bpe-tables.js), which a process maps into typed arrays
 * with one read. The file names the `.tiktoken` file it was built from
 * (its size, modification time and CRC-32, and the version of the package
 * that ships it) and carries a CRC-32 of its own contents; a file of another
 * format version, another byte order, another source, or damaged, is
 * refused, and the ranks are parsed from the source as before. The source
 * is read to check its CRC-32 only when both its modification time and its
 * package's version differ from the table's (a package's version on npm
 * never changes, so an installed copy of the package the table was built
 * from is known without reading it).
 *
 * Layout (the machine's byte order; every array at an offset its element
 * size divides): a header of {@link HEADER} bytes, then `ends` (u32, one
 * more than the ranks), `slots` (i32), `bytes` (u8).
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import * as zlib from "node:zlib";

/** The ranks of one encoding: token bytes back to back in rank order, and a hash table of ranks. */
export interface Ranks {
	/** The token of rank `r` is `bytes[ends[r]..ends[r + 1])` (empty where no token has rank `r`). */
	bytes: Uint8Array;
	ends: Uint32Array;
	/**
	 * Per slot, rank + 1 in the low {@link RANK_BITS} bits and the top bits of
	 * the token's hash above them (a probe that meets another token's slot
	 * mostly tells by these, without reading the token); 0 is empty.
	 */
	slots: Int32Array;
	mask: number;
}

/** The bits of a slot that hold rank + 1: ranks up to 2^20 - 2. */
export const RANK_BITS = 20;
/** A slot's rank + 1. */
export const RANK_MASK = (1 << RANK_BITS) - 1;

const BASE64 = new Int8Array(128).fill(-1);
for (const [i, ch] of [
	..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
].entries())
	BASE64[ch.charCodeAt(0)] = i;

/**
 * The ranks of a `.tiktoken` file's contents, and the hash table over them.
 * Ranks go up line by line in the files `gpt-tokenizer` ships (a rank left
 * out has no token); a file whose ranks go down is refused.
 */
export function parseTiktoken(text: Uint8Array): Ranks {
	let lines = 0;
	for (let i = 0; i < text.length; i++) if (text[i] === 10) lines++;
	const bytes = new Uint8Array(text.length);
	let ends = new Uint32Array(lines + 2);
	let at = 0;
	/** The next rank: every rank below it is placed. */
	let next = 0;
	for (let i = 0, line = 1; i < text.length; line++) {
		const start = at;
		let acc = 0;
		let bits = 0;
		for (; i < text.length && text[i] !== 32; i++) {
			const v = BASE64[text[i] as number] ?? -1;
			if (v < 0) continue; // padding
			acc = ((acc << 6) | v) & 0xffffff;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				bytes[at++] = (acc >> bits) & 255;
			}
		}
		let rank = 0;
		for (i++; i < text.length && text[i] !== 10; i++) rank = rank * 10 + (text[i] as number) - 48;
		i++;
		if (at === start) continue;
		if (rank < next)
			throw new Error(`ranks file, line ${line}: rank ${rank} after rank ${next - 1}`);
		if (rank + 2 > ends.length) {
			const longer = new Uint32Array(Math.max(rank + 2, 2 * ends.length));
			longer.set(ends);
			ends = longer;
		}
		ends.fill(start, next + 1, rank + 1);
		ends[rank + 1] = at;
		next = rank + 1;
	}
	if (next > RANK_MASK - 1) throw new Error(`ranks file: ${next} ranks, more than a table holds`);
	// Three quarters full at most: a probe past another token's slot reads its hash's top bits alone.
	let size = 1;
	while (size < next * 1.25) size <<= 1;
	const slots = new Int32Array(size);
	const mask = size - 1;
	for (let r = 0; r < next; r++) {
		const s = ends[r] as number;
		const e = ends[r + 1] as number;
		if (s === e) continue;
		// Valid UTF-8 after a byte-order mark: never found by gpt-tokenizer, which strips the mark.
		if (startsWithBom(bytes, s, e) && isUtf8(bytes, s, e)) continue;
		const h = hashBytes(bytes, s, e);
		let slot = h & mask;
		while (slots[slot] !== 0) slot = (slot + 1) & mask;
		slots[slot] = ((h >>> RANK_BITS) << RANK_BITS) | (r + 1);
	}
	return { bytes: bytes.subarray(0, at), ends: ends.subarray(0, next + 1), slots, mask };
}

/** FNV-1a of `b[s..e)`: the table's hash. */
export function hashBytes(b: Uint8Array, s: number, e: number): number {
	let h = 0x811c9dc5;
	for (let i = s; i < e; i++) h = Math.imul(h ^ (b[i] as number), 0x01000193);
	return h >>> 0;
}

/** Whether `b[s..e)` starts with a byte-order mark. */
export function startsWithBom(b: Uint8Array, s: number, e: number): boolean {
	return (
		e - s >= 3 &&
		(((b[s] as number) << 16) | ((b[s + 1] as number) << 8) | (b[s + 2] as number)) === 0xefbbbf
	);
}

/** Whether `b[s..e)` is valid UTF-8, as gpt-tokenizer checks it. */
export function isUtf8(b: Uint8Array, s: number, e: number): boolean {
	let i = s;
	while (i < e) {
		const b1 = b[i] as number;
		let size: number;
		let cp: number;
		if (b1 <= 127) {
			i++;
			continue;
		}
		if ((b1 & 224) === 192) {
			if (b1 <= 193) return false;
			size = 2;
			cp = b1 & 31;
		} else if ((b1 & 240) === 224) {
			size = 3;
			cp = b1 & 15;
		} else if ((b1 & 248) === 240) {
			if (b1 > 244) return false;
			size = 4;
			cp = b1 & 7;
		} else return false;
		if (i + size > e) return false;
		for (let j = 1; j < size; j++) {
			const c = b[i + j] as number;
			if ((c & 192) !== 128) return false;
			cp = (cp << 6) | (c & 63);
		}
		if ((size === 3 && cp < 2048) || (size === 4 && cp < 65536)) return false;
		if ((cp >= 55296 && cp <= 57343) || cp > 1114111) return false;
		i += size;
	}
	return true;
}

/** A `.tiktoken` file, and the version of the package that ships it. */
export interface RanksSource {
	file: string;
	version: string;
}

/** `zlib.crc32`: Node 20.15 and later (before, tables are always parsed). */
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

const MAGIC = "BPERANKS";
/** Bumped whenever the layout or the hash changes. */
const VERSION = 4;
/** Written in the machine's byte order: read back otherwise, the file is of another machine. */
const BYTE_ORDER = 0x01020304;
const HEADER = 64;
/** The source package's version, ASCII, zero-padded (empty when longer). */
const PACKAGE_VERSION = { at: 48, length: 16 };
const field = {
	byteOrder: 8,
	version: 12,
	sourceSize: 16,
	sourceCrc: 20,
	sourceMtime: 24,
	count: 32,
	bytesLength: 36,
	slotsLength: 40,
	crc: 44,
} as const;

/** The size of a table file and the offset of each array in it. */
function layout(count: number, bytesLength: number, slotsLength: number) {
	const ends = HEADER;
	const slots = ends + 4 * (count + 1);
	const bytes = slots + 4 * slotsLength;
	return { ends, slots, bytes, size: bytes + bytesLength };
}

/** The bytes of a typed array's elements. */
const asBytes = (a: Uint32Array | Int32Array) =>
	new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * The table file of the `.tiktoken` file `source`: its ranks parsed
 * ({@link parseTiktoken}), and the source's size, modification time,
 * CRC-32 and package version.
 */
export function buildRanksTable(source: RanksSource): Uint8Array {
	if (crc32 === undefined)
		throw new Error("zlib.crc32 is missing: Node 20.15 or later writes tables");
	const sourceData = readFileSync(source.file);
	const ranks = parseTiktoken(sourceData);
	const count = ranks.ends.length - 1;
	const at = layout(count, ranks.bytes.length, ranks.slots.length);
	const out = new Uint8Array(at.size);
	out.set(asBytes(ranks.ends), at.ends);
	out.set(asBytes(ranks.slots), at.slots);
	out.set(ranks.bytes, at.bytes);
	for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
	const header = new Uint32Array(out.buffer, 0, HEADER / 4);
	header[field.byteOrder / 4] = BYTE_ORDER;
	header[field.version / 4] = VERSION;
	header[field.sourceSize / 4] = sourceData.length;
	header[field.sourceCrc / 4] = crc32(sourceData);
	new Float64Array(out.buffer, field.sourceMtime, 1)[0] = statSync(source.file).mtimeMs;
	out.set(versionBytes(source.version), PACKAGE_VERSION.at);
	header[field.count / 4] = count;
	header[field.bytesLength / 4] = ranks.bytes.length;
	header[field.slotsLength / 4] = ranks.slots.length;
	header[field.crc / 4] = crc32(out.subarray(HEADER));
	return out;
}

/** Writes `table` to `file` whole (through a temporary file renamed over it). */
export function writeRanksTable(file: string, table: Uint8Array): void {
	const temporary = `${file}.${process.pid}.tmp`;
	writeFileSync(temporary, table);
	renameSync(temporary, file);
}

/**
 * The ranks in the table file `file` when it is sound and was built from
 * the `.tiktoken` file `source` as it is now; otherwise undefined (no file,
 * another version or byte order, damaged, or another source).
 */
export function readRanksTable(file: string, source: RanksSource): Ranks | undefined {
	if (crc32 === undefined) return undefined;
	let data: Uint8Array;
	try {
		data = readFileSync(file);
	} catch {
		return undefined;
	}
	if (data.length < HEADER || data.byteOffset % 8 !== 0) data = new Uint8Array(data);
	if (data.length < HEADER) return undefined;
	for (let i = 0; i < MAGIC.length; i++) if (data[i] !== MAGIC.charCodeAt(i)) return undefined;
	const header = new Uint32Array(data.buffer, data.byteOffset, HEADER / 4);
	const u32 = (offset: number) => header[offset / 4] as number;
	if (u32(field.byteOrder) !== BYTE_ORDER || u32(field.version) !== VERSION) return undefined;
	const count = u32(field.count);
	const slotsLength = u32(field.slotsLength);
	const at = layout(count, u32(field.bytesLength), slotsLength);
	if (at.size !== data.length || slotsLength === 0 || (slotsLength & (slotsLength - 1)) !== 0)
		return undefined;
	if (!sameSource(source, data, u32(field.sourceSize), u32(field.sourceCrc))) return undefined;
	if (crc32(data.subarray(HEADER)) !== u32(field.crc)) return undefined;
	const { buffer, byteOffset } = data;
	return {
		ends: new Uint32Array(buffer, byteOffset + at.ends, count + 1),
		slots: new Int32Array(buffer, byteOffset + at.slots, slotsLength),
		bytes: new Uint8Array(buffer, byteOffset + at.bytes, at.size - at.bytes),
		mask: slotsLength - 1,
	};
}

/** `version` as the header holds it. */
function versionBytes(version: string): Uint8Array {
	const bytes = new Uint8Array(PACKAGE_VERSION.length);
	if (version.length <= bytes.length && /^[\x20-\x7e]*$/.test(version))
		for (let i = 0; i < version.length; i++) bytes[i] = version.charCodeAt(i);
	return bytes;
}

/**
 * Whether `source` is the file the table `data` names: its size, and its
 * modification time or its package's version, else its CRC-32 (a copy, a
 * reinstall, another version of the package).
 */
function sameSource(source: RanksSource, data: Uint8Array, size: number, crc: number): boolean {
	let stat: { size: number; mtimeMs: number };
	try {
		stat = statSync(source.file);
	} catch {
		return false;
	}
	if (stat.size !== size) return false;
	const mtime = new Float64Array(data.buffer, data.byteOffset + field.sourceMtime, 1)[0];
	if (stat.mtimeMs === mtime) return true;
	const version = versionBytes(source.version);
	const known = data.subarray(PACKAGE_VERSION.at, PACKAGE_VERSION.at + PACKAGE_VERSION.length);
	if (version[0] !== 0 && version.every((b, i) => b === known[i])) return true;
	return (crc32 as (data: Uint8Array) => number)(readFileSync(source.file)) === crc;
}

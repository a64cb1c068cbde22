/**
 * The file the ranks of a byte-pair encoding (./bpe-ranks.ts) are kept in.
 * Parsing a `.tiktoken` file (one base64 token and its rank a line) and
 * building the hash table over it cost ~90 ms of every process that counts,
 * so `npm run build` writes the finished table of each encoding into
 * `dist/tokenizer/NAME.bin` (scripts/write-bpe-tables.js), which a process
 * reads with one read and views as typed arrays. The file names the `.tiktoken` file it was built from
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
import { parseTiktoken, type Ranks } from "./bpe-ranks.js";

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

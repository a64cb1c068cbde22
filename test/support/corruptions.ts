/**
 * Damage to a serialized session log's bytes, in the ways the session-log
 * contract names (a torn line, a removed or repeated line, a broken parent, a
 * cycle, a field of the wrong type, bytes that are not UTF-8…). Where a
 * writer may pause when it appends a log in pieces: ./cuts.ts.
 */
import fc from "fast-check";
import { isObject, type JsonObject } from "./arbitraries.js";

// ── corruptions ─────────────────────────────────────────────────────────────

export const CORRUPTION_KINDS = [
	"torn",
	"flipByte",
	"removeLine",
	"duplicateLine",
	"breakParent",
	"cycle",
	"wrongType",
	"hugeString",
	"badUtf8",
] as const;
export type CorruptionKind = (typeof CORRUPTION_KINDS)[number];

/** A corruption: its kind and three numbers that pick where and how. */
export interface Corruption {
	kind: CorruptionKind;
	a: number;
	b: number;
	c: number;
}

/** How often each kind is drawn by {@link corruption}, relative to the others. */
export const CORRUPTION_WEIGHTS: Readonly<Record<CorruptionKind, number>> = {
	torn: 3,
	flipByte: 4,
	removeLine: 2,
	duplicateLine: 2,
	breakParent: 2,
	cycle: 2,
	wrongType: 3,
	hugeString: 1,
	badUtf8: 2,
};

/** A corruption of the given kind, where and how drawn at random. */
export const corruptionOf = (kind: CorruptionKind): fc.Arbitrary<Corruption> =>
	fc.record({ kind: fc.constant(kind), a: fc.nat(), b: fc.nat(), c: fc.nat() });

/** A corruption of any kind, drawn by {@link CORRUPTION_WEIGHTS}. */
export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
	...CORRUPTION_KINDS.map((kind) => ({
		weight: CORRUPTION_WEIGHTS[kind],
		arbitrary: corruptionOf(kind),
	})),
);

/** What a corruption did. Line numbers are 1-based, in the corrupted bytes. */
export interface Corrupted {
	bytes: Buffer;
	kind: CorruptionKind;
	/** Whether it changed anything (some need a line of a certain kind to act on). */
	applied: boolean;
	/** The line that was damaged, when one line is. */
	damagedLine?: number;
	/** For a cycle: the lines of the entries on it. */
	cycleLines?: number[];
}

const NEWLINE = 0x0a;

/** The lines of `bytes` (without their newline) and whether the last one ends in a newline. */
export function splitLines(bytes: Buffer): { lines: Buffer[]; terminated: boolean } {
	const lines: Buffer[] = [];
	let start = 0;
	for (;;) {
		const nl = bytes.indexOf(NEWLINE, start);
		if (nl === -1) break;
		lines.push(bytes.subarray(start, nl));
		start = nl + 1;
	}
	const terminated = start === bytes.length;
	if (!terminated) lines.push(bytes.subarray(start));
	return { lines, terminated };
}

function joinLines(lines: readonly Buffer[], terminated: boolean): Buffer {
	const parts: Buffer[] = [];
	lines.forEach((line, i) => {
		parts.push(line);
		if (terminated || i < lines.length - 1) parts.push(Buffer.from([NEWLINE]));
	});
	return Buffer.concat(parts);
}

/** Whether a line holds only spaces, tabs and carriage returns (the reader skips it). */
export function isBlankLine(line: Buffer): boolean {
	for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
	return true;
}

function parseObject(line: Buffer): JsonObject | undefined {
	try {
		const value: unknown = JSON.parse(line.toString("utf8"));
		return typeof value === "object" && value !== null && !Array.isArray(value)
			? (value as JsonObject)
			: undefined;
	} catch {
		return undefined;
	}
}

/** Indices (0-based) of the entry lines that hold a JSON object with a string id. */
function entryLines(lines: readonly Buffer[]): { index: number; entry: JsonObject }[] {
	const out: { index: number; entry: JsonObject }[] = [];
	for (let i = 1; i < lines.length; i++) {
		const entry = parseObject(lines[i] as Buffer);
		if (entry !== undefined && typeof entry.id === "string") out.push({ index: i, entry });
	}
	return out;
}

const INVALID_UTF8 = [
	[0xff],
	[0xc3],
	[0xed, 0xa0, 0x80],
	[0xc0, 0x80],
	[0xe2, 0x82],
	[0xf8, 0x88, 0x80, 0x80, 0x80],
];
const HUGE_UNITS = ["x", "é", "👩‍💻", "\\", "\n"];

/** Applies one corruption to a log's bytes. */
export function corrupt(bytes: Buffer, { kind, a, b, c }: Corruption): Corrupted {
	const { lines, terminated } = splitLines(bytes);
	const same: Corrupted = { bytes, kind, applied: false };
	const done = (out: Buffer[], term: boolean, extra: Partial<Corrupted> = {}): Corrupted => ({
		bytes: joinLines(out, term),
		kind,
		applied: true,
		...extra,
	});
	const nonBlank: number[] = [];
	for (let i = 1; i < lines.length; i++) if (!isBlankLine(lines[i] as Buffer)) nonBlank.push(i);
	switch (kind) {
		case "torn": {
			// A crash mid-append: the last line loses its newline and maybe its end.
			if (lines.length === 0) return same;
			const last = lines.length - 1;
			const line = lines[last] as Buffer;
			const keep = line.length === 0 ? 0 : 1 + (a % line.length);
			const out = [...lines];
			out[last] = line.subarray(0, keep);
			return done(out, false, { damagedLine: last + 1 });
		}
		case "flipByte": {
			if (bytes.length === 0) return same;
			const out = Buffer.from(bytes);
			const at = a % out.length;
			const mask = b % 2 === 0 ? 1 << (c % 8) : 1 + (c % 255);
			out[at] = (out[at] as number) ^ mask;
			let line = 1;
			for (let i = 0; i < at; i++) if (bytes[i] === NEWLINE) line++;
			return { bytes: out, kind, applied: true, damagedLine: line };
		}
		case "removeLine": {
			if (nonBlank.length === 0) return same;
			const index = nonBlank[a % nonBlank.length] as number;
			return done(
				lines.filter((_, i) => i !== index),
				terminated || index !== lines.length - 1,
			);
		}
		case "duplicateLine": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index } = candidates[a % candidates.length] as { index: number };
			// Insert the copy anywhere after the header (before a torn last line).
			const slots = terminated ? lines.length : lines.length - 1;
			const at = 1 + (b % slots);
			const out = [...lines];
			out.splice(at, 0, lines[index] as Buffer);
			const later = at <= index ? index + 1 : at;
			return done(out, terminated, { damagedLine: later + 1 });
		}
		case "breakParent": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index, entry } = candidates[a % candidates.length] as {
				index: number;
				entry: JsonObject;
			};
			const out = [...lines];
			out[index] = Buffer.from(JSON.stringify({ ...entry, parentId: `missing·${b}` }));
			return done(out, terminated, { damagedLine: index + 1 });
		}
		case "cycle": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const byId = new Map(candidates.map((x) => [x.entry.id as string, x]));
			// For each entry, its descendants (entries whose parent chain reaches it).
			const chains = candidates.map((x) => {
				const chain: (typeof x)[] = [x];
				let cur = x;
				for (let steps = 0; steps < candidates.length; steps++) {
					const p =
						typeof cur.entry.parentId === "string" ? byId.get(cur.entry.parentId) : undefined;
					if (p === undefined) break;
					chain.push(p);
					cur = p;
				}
				return chain;
			});
			const pairs: { top: number; path: number[] }[] = [];
			for (const chain of chains) {
				for (let k = 1; k < chain.length; k++) {
					pairs.push({
						top: (chain[k] as { index: number }).index,
						path: chain.slice(0, k + 1).map((x) => x.index),
					});
				}
			}
			const out = [...lines];
			if (pairs.length === 0) {
				// No entry has a descendant: a self-reference.
				const { index, entry } = candidates[a % candidates.length] as {
					index: number;
					entry: JsonObject;
				};
				out[index] = Buffer.from(JSON.stringify({ ...entry, parentId: entry.id }));
				return done(out, terminated, { damagedLine: index + 1, cycleLines: [index + 1] });
			}
			// The earlier entry (top) gets a later descendant (path[0]) as its parent.
			const { top, path } = pairs[a % pairs.length] as { top: number; path: number[] };
			const topEntry = parseObject(lines[top] as Buffer) as JsonObject;
			const descendant = parseObject(lines[path[0] as number] as Buffer) as JsonObject;
			out[top] = Buffer.from(JSON.stringify({ ...topEntry, parentId: descendant.id }));
			return done(out, terminated, {
				damagedLine: top + 1,
				cycleLines: path.map((i) => i + 1),
			});
		}
		case "wrongType": {
			const candidates = entryLines(lines);
			if (candidates.length === 0) return same;
			const { index, entry } = candidates[a % candidates.length] as {
				index: number;
				entry: JsonObject;
			};
			// Each makes the entry invalid for the schema (a field of the wrong type, or missing).
			const mutations: [JsonObject, string, unknown][] = [
				[entry, "timestamp", 1767225600000],
				[entry, "id", 7],
				[entry, "id", ""],
				[entry, "parentId", 42],
				[entry, "type", 3],
			];
			const set = (target: unknown, fields: [string, unknown][]) => {
				if (isObject(target)) for (const [k, v] of fields) mutations.push([target, k, v]);
			};
			const { message, data } = entry;
			const content: [string, unknown][] = [
				["content", 12],
				["content", [1]],
				["content", [{ text: "no type" }]],
				["content", [{ type: 5 }]],
			];
			if (entry.type === "message") {
				mutations.push([entry, "message", "not an object"]);
				const role = isObject(message) ? message.role : undefined;
				if (role === "user" || role === "assistant") set(message, content);
				if (role === "toolResult") {
					set(message, [...content, ["toolCallId", 1], ["toolName", null]]);
				}
				if (role === "custom") set(message, [...content, ["customType", 1], ["display", "true"]]);
				if (role === "bashExecution") {
					set(message, [
						["command", 5],
						["output", null],
						["exitCode", "0"],
						["cancelled", "yes"],
						["truncated", 1],
						["fullOutputPath", 1],
						["excludeFromContext", "no"],
					]);
				}
			}
			if (entry.type === "custom") {
				if (entry.customType === "session_metadata") {
					mutations.push([entry, "data", []]);
					set(data, [
						["tools", "read"],
						["tools", [1]],
						["memory", 5],
						["collapseNodeId", 5],
						["harnessIntroduction", false],
					]);
				} else if (entry.customType === "compact_context") {
					mutations.push([entry, "data", "summary"]);
					set(data, [["summary", 99]]);
				} else {
					mutations.push([entry, "customType", 1]);
				}
			}
			if (entry.type === "compaction") {
				set(entry, [
					["summary", false],
					["firstKeptEntryId", 5],
					["tokensBefore", "10"],
				]);
			}
			if (entry.type === "branch_summary") {
				set(entry, [
					["summary", false],
					["fromId", 3],
				]);
			}
			if (entry.type === "custom_message") {
				set(entry, [...content, ["customType", null], ["display", "yes"]]);
			}
			if (entry.type === "model_change") set(entry, [["provider", 1]]);
			if (entry.type === "thinking_level_change") set(entry, [["thinkingLevel", null]]);
			if (entry.type === "label") set(entry, [["targetId", 5]]);
			if (entry.type === "session_info") set(entry, [["name", 5]]);
			const [target, key, value] = mutations[b % mutations.length] as [JsonObject, string, unknown];
			target[key] = value;
			const out = [...lines];
			out[index] = Buffer.from(JSON.stringify(entry));
			return done(out, terminated, { damagedLine: index + 1 });
		}
		case "hugeString": {
			// A valid entry with a string of a few MB (more than one read chunk).
			const unit = HUGE_UNITS[b % HUGE_UNITS.length] as string;
			const bytesWanted = 2_000_000 + (c % 4_000_000);
			const content = unit.repeat(Math.ceil(bytesWanted / Buffer.byteLength(unit)));
			const slots = terminated ? lines.length : lines.length - 1;
			if (slots < 1) return same;
			const at = 1 + (a % slots);
			const before = entryLines(lines.slice(0, at));
			const parentId = before.length === 0 ? null : (before[before.length - 1]?.entry.id ?? null);
			const huge = {
				type: "message",
				id: `huge·${a}·${c}`,
				parentId,
				timestamp: "2026-01-02T00:00:00.000Z",
				message: { role: "user", content, timestamp: 1 },
			};
			const out = [...lines];
			out.splice(at, 0, Buffer.from(JSON.stringify(huge)));
			return done(out, terminated);
		}
		case "badUtf8": {
			if (nonBlank.length === 0) return same;
			const index = nonBlank[a % nonBlank.length] as number;
			const line = lines[index] as Buffer;
			const at = b % (line.length + 1);
			const bad = Buffer.from(INVALID_UTF8[c % INVALID_UTF8.length] as number[]);
			const out = [...lines];
			out[index] = Buffer.concat([line.subarray(0, at), bad, line.subarray(at)]);
			return done(out, terminated, { damagedLine: index + 1 });
		}
	}
}

/** Applies corruptions one after another; the result describes the last one. */
export function corruptAll(bytes: Buffer, corruptions: readonly Corruption[]): Corrupted {
	let out: Corrupted = { bytes, kind: "flipByte", applied: false };
	for (const c of corruptions) {
		const next = corrupt(out.bytes, c);
		out = { ...next, applied: out.applied || next.applied };
	}
	return out;
}

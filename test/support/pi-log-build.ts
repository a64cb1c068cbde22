/**
 * Building a generated pi log (`pi-session-logs.ts`) into its text: ids,
 * parents and references resolved, version-1 logs written without ids (a
 * compaction names its first kept entry by index, as pi counts them), junk
 * lines placed. A cycle on the branch pi walks is cut where pi's walk would
 * close it, since pi never returns from one.
 */
import type { Body, Junk, Node, PiLogSpec } from "./pi-session-logs.js";

type JsonObject = Record<string, unknown>;

export interface BuiltPiLog {
	spec: PiLogSpec;
	text: string;
	/** The entry objects, one per node, as written (v1: without id and parentId). */
	entries: JsonObject[];
	/** pi's index of each entry among the parsed lines (the header is 0). */
	parsedIndex: number[];
	/** The junk lines written, in order. */
	junk: Junk[];
	/** A cycle on pi's branch was cut. */
	cutCycle: boolean;
}

const BASE_TIME = Date.UTC(2026, 0, 1);

export function buildPiLog(spec: PiLogSpec): BuiltPiLog {
	const { version, nodes } = spec;
	const n = nodes.length;
	const ids: string[] = [];
	nodes.forEach((node, i) => {
		const fresh = node.idText !== null && !ids.includes(node.idText) ? node.idText : `e${i}`;
		ids.push(node.dup !== null && i > 0 ? (ids[node.dup.n % i] as string) : fresh);
	});
	const parentIds = nodes.map((node, i): string | null => {
		const p = node.parent;
		if (p.to === "previous") return i === 0 ? null : (ids[i - 1] as string);
		if (p.to === "earlier") return i === 0 ? null : (ids[p.n % i] as string);
		if (p.to === "later") return i + 1 < n ? (ids[i + 1 + (p.n % (n - i - 1))] as string) : null;
		if (p.to === "root") return null;
		// Names no entry (unless an entry took one of the odd ids): the header's id, a key of Object.
		return [`gone-${i}`, "session-fuzz", "__proto__", "hasOwnProperty"][p.n % 4] as string;
	});
	// pi's index of each parsed line: the header is 0; junk that parses (a scalar) counts.
	const junk: Junk[] = [];
	const crJoins = nodes.some((node) => node.crJoin);
	const parsedIndex: number[] = [];
	let parsed = 1;
	for (const node of nodes) {
		for (const j of node.junkBefore) {
			// A scalar would crash pi's v1 migration (every parsed value gets an id), and be pi's
			// leaf if the entries after it were lost to a lone CR.
			const scalarOk = version >= 2 && !crJoins;
			const line = j.kind === "scalar" && !scalarOk ? { kind: "malformed" as const, line: "{" } : j;
			junk.push(line);
			if (line.kind === "scalar" || line.kind === "header") parsed++;
		}
		parsedIndex.push(parsed++);
	}
	for (const j of spec.trailing) junk.push(j);
	const ancestors = (i: number): number[] => {
		const out: number[] = [];
		const byId = new Map<string, number>();
		for (let k = 0; k < i; k++) byId.set(ids[k] as string, k);
		const seen = new Set<number>();
		for (let x = byId.get(parentIds[i] ?? ""); x !== undefined && !seen.has(x); ) {
			seen.add(x);
			out.push(x);
			x = byId.get(parentIds[x] ?? "");
		}
		return out;
	};
	const entries = nodes.map((node, i) =>
		entryOf(node.body, i, { version, ids, parentIds, parsedIndex, ancestors, n }),
	);
	entries.forEach((entry, i) => {
		const node = nodes[i] as Node;
		entry.timestamp = node.time ?? new Date(BASE_TIME + i * 1000).toISOString();
		if (version >= 2 || spec.v1Ids) {
			entry.id = ids[i];
			entry.parentId = parentIds[i];
		}
	});
	const head = JSON.stringify(header(spec));
	const junkLine = (j: Junk) => (j.line === "$header" ? head : j.line);
	const write = (): string => {
		// Each line with what ends it: the log's line ending, or a lone CR joining it to the next.
		const lines: [string, string][] = [[head, spec.eol]];
		let k = 0;
		nodes.forEach((node, i) => {
			for (const _ of node.junkBefore) lines.push([junkLine(junk[k++] as Junk), spec.eol]);
			// Not the last entry: pi trims the whole text, so `{…}\r\u00a0` would parse there alone.
			const joined = node.crJoin && i < n - 1;
			const line = JSON.stringify(entries[i]);
			lines.push([node.pad ? ` \t${line}  ` : line, joined ? "\r" : spec.eol]);
		});
		for (const j of spec.trailing) lines.push([junkLine(j), spec.eol]);
		return spec.lead + lines.map(([line, end]) => line + end).join("");
	};
	let text = write();
	let cutCycle = false;
	for (let closing = cycleOnBranch(text, entries); closing !== undefined; ) {
		closing.parentId = null;
		cutCycle = true;
		text = write();
		closing = cycleOnBranch(text, entries);
	}
	return { spec, text, entries, parsedIndex, junk, cutCycle };
}

function header(spec: PiLogSpec): JsonObject {
	const base = {
		type: "session",
		id: "session-fuzz",
		timestamp: "2026-01-01T00:00:00.000Z",
		cwd: "/home/user/project",
	};
	if (spec.version === 1)
		return { ...base, ...(spec.v1Explicit ? { version: 1 } : {}), ...spec.headerExtras };
	return { ...base, version: spec.version };
}

interface Context {
	version: 1 | 2 | 3;
	ids: string[];
	parentIds: (string | null)[];
	parsedIndex: number[];
	/** The indices of the entries above entry i, nearest first (as written so far). */
	ancestors: (i: number) => number[];
	n: number;
}

function entryOf(b: Body, i: number, c: Context): JsonObject {
	const other = (pick: number) => (i === 0 ? "nowhere" : (c.ids[pick % i] as string));
	switch (b.t) {
		case "message":
			return { type: "message", message: b.message };
		case "hook": {
			// Version 2 called a custom message role hookMessage (pi migrates it).
			const role = c.version < 3 ? "hookMessage" : "custom";
			const time =
				b.time === null
					? { timestamp: i }
					: b.time.time === undefined
						? {}
						: { timestamp: b.time.time };
			return { type: "message", message: { role, ...b.fields, ...time } };
		}
		case "compaction":
			return {
				type: "compaction",
				summary: b.summary,
				...firstKept(b, i, c),
				...(b.tokensBefore === undefined ? {} : { tokensBefore: b.tokensBefore }),
			};
		case "branch_summary":
			return {
				type: "branch_summary",
				...(b.pick === undefined ? {} : { fromId: other(b.pick) }),
				summary: b.summary,
			};
		case "custom_message":
			return { type: "custom_message", ...b.fields };
		case "custom":
			return { type: "custom", customType: b.customType, data: b.data };
		case "compact_context":
			return { type: "custom", customType: "compact_context", data: { summary: b.summary } };
		case "model_change":
			return { type: "model_change", provider: b.provider, modelId: b.modelId };
		case "thinking_level_change":
			return { type: "thinking_level_change", thinkingLevel: b.thinkingLevel };
		case "label":
			return {
				type: "label",
				targetId: other(b.pick),
				...(b.label === undefined ? {} : { label: b.label }),
			};
		case "session_info":
			return { type: "session_info", ...(b.name === undefined ? {} : { name: b.name }) };
		case "unknown":
			return { type: b.type, data: b.type };
	}
}

/** The compaction's first kept entry: by id (v2, v3) or by parsed index (v1). */
function firstKept(b: Extract<Body, { t: "compaction" }>, i: number, c: Context): JsonObject {
	const above = c.ancestors(i);
	const later = i + 1 < c.n ? i + 1 + (b.pick % (c.n - i - 1)) : undefined;
	if (c.version === 1) {
		const index = (k: number | undefined) =>
			k === undefined ? {} : { firstKeptEntryIndex: c.parsedIndex[k] };
		switch (b.kept) {
			case "itself":
				return index(i);
			case "later":
				return later === undefined ? { firstKeptEntryIndex: 1000 } : index(later);
			case "missing":
				return { firstKeptEntryIndex: 1000 + b.pick };
			case "absent":
				return {};
			case "index-header":
				return { firstKeptEntryIndex: 0 };
			case "index-odd":
				return { firstKeptEntryIndex: [-1, 1.5, "2", null][b.pick % 4] };
			default: // ancestor, elsewhere: in version 1 every earlier entry is an ancestor
				return index(i === 0 ? undefined : b.pick % i);
		}
	}
	const id = (k: number | undefined) => (k === undefined ? {} : { firstKeptEntryId: c.ids[k] });
	switch (b.kept) {
		case "itself":
			return id(i);
		case "later":
			return id(later);
		case "elsewhere": {
			const off = Array.from({ length: i }, (_, k) => k).filter((k) => !above.includes(k));
			return off.length === 0 ? {} : id(off[b.pick % off.length]);
		}
		case "missing":
			return { firstKeptEntryId: `gone-kept-${b.pick}` };
		case "absent":
			return {};
		default:
			return above.length === 0 ? {} : id(above[b.pick % above.length]);
	}
}

/** The values pi parses from `text`, in order (the header first): blank and malformed lines skipped. */
export function piParse(text: string): unknown[] {
	const values: unknown[] = [];
	for (const line of text.trim().split("\n")) {
		if (!line.trim()) continue;
		try {
			values.push(JSON.parse(line));
		} catch {
			// skipped, as pi skips it
		}
	}
	return values;
}

/**
 * The entry (of `entries`, as written) whose parent closes a cycle on the
 * branch pi walks from the last entry it parses of `text` (version 2 and
 * later: a version-1 log is one chain), if any.
 */
function cycleOnBranch(text: string, entries: JsonObject[]): JsonObject | undefined {
	const parsed = piParse(text).filter(
		(v): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v),
	);
	if ((parsed[0] as JsonObject).version === undefined || parsed[0]?.version === 1) return undefined;
	const tree = parsed.filter((v) => v.type !== "session");
	const byId = new Map(tree.map((e) => [e.id, e]));
	const seen = new Set<JsonObject>();
	for (let x = tree.at(-1); x !== undefined; ) {
		seen.add(x);
		const parent = typeof x.parentId === "string" ? byId.get(x.parentId) : undefined;
		if (parent !== undefined && seen.has(parent)) {
			const written = JSON.stringify(x);
			return entries.findLast((e) => JSON.stringify(e) === written);
		}
		x = parent;
	}
	return undefined;
}

/**
 * What a generated pi log reaches, named, so the differential property can
 * assert that its generator reaches every edge case it is about. Computed
 * from the built log alone, with a small model of pi's reading (its
 * migration of version 1, the last entry as the leaf, the last entry of an
 * id winning, the latest compaction on the branch): never by the library.
 */
import { type BuiltPiLog, piParse } from "./pi-log-build.js";
import { ODD_IDS } from "./pi-session-logs.js";

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject =>
	typeof v === "object" && v !== null && !Array.isArray(v);

/** pi's view of the entries: parsed as pi parses, version 1 migrated (ids, chain, first kept by id). */
function piEntries(log: BuiltPiLog): JsonObject[] {
	const values = piParse(log.text);
	const tree = values.filter((v): v is JsonObject => isObject(v) && v.type !== "session");
	if (log.spec.version >= 2) return tree;
	const out: JsonObject[] = [];
	values.forEach((v, k) => {
		if (!isObject(v) || v.type === "session") return;
		const entry: JsonObject = { ...v, id: `v1-${k}`, parentId: (out.at(-1)?.id as string) ?? null };
		const index = v.firstKeptEntryIndex;
		if (v.type === "compaction" && typeof index === "number") {
			const target = values[index];
			if (isObject(target) && target.type !== "session" && index < k)
				entry.firstKeptEntryId = `v1-${index}`;
		}
		out.push(entry);
	});
	return out;
}

const message = (e: JsonObject) => e.message as JsonObject;
const blocks = (e: JsonObject): JsonObject[] => {
	const content = message(e).content;
	return Array.isArray(content) ? (content as JsonObject[]) : [];
};

/** The names of the edge cases `log` reaches. */
export function reach(log: BuiltPiLog): string[] {
	const hits = new Set<string>([`version ${log.spec.version}`]);
	const hit = (name: string, when = true) => {
		if (when) hits.add(name);
	};
	for (const j of log.junk) hit(`line: ${j.kind}`);
	hit("lead: byte-order mark", log.spec.lead === "\ufeff");
	hit("lead: blank lines", /^\s+$/.test(log.spec.lead) && log.spec.lead !== "\ufeff");
	hit("eol: CRLF", log.spec.eol === "\r\n");
	hit("cycle: cut on the branch", log.cutCycle);
	hit(
		"line: entries joined by a lone CR",
		log.spec.nodes.slice(0, -1).some((n) => n.crJoin),
	);
	hit(
		"line: an entry padded with spaces and tabs",
		log.spec.nodes.some((n) => n.pad),
	);
	hit("header: version 1 said", log.spec.version === 1 && log.spec.v1Explicit);
	hit("v1: ids of its own", log.spec.version === 1 && log.spec.v1Ids && log.entries.length > 0);
	const entries = piEntries(log);
	if (entries.length === 0) return [...hits, "context: no entries"];

	const byId = new Map(entries.map((e) => [e.id as string, e]));
	const parentOf = (e: JsonObject) =>
		typeof e.parentId === "string" ? byId.get(e.parentId) : undefined;
	const path: JsonObject[] = [];
	for (let x: JsonObject | undefined = entries.at(-1); x !== undefined && !path.includes(x); ) {
		path.unshift(x);
		x = parentOf(x);
	}
	const onPath = new Set(path);
	const ids = entries.map((e) => e.id);
	const children = new Map<JsonObject, number>();
	for (const e of entries) {
		const p = parentOf(e);
		if (p !== undefined && byId.get(e.id as string) === e)
			children.set(p, (children.get(p) ?? 0) + 1);
	}
	const forks = [...children.values()].filter((c) => c >= 2).length;
	hit("tree: a fork", forks >= 1);
	hit("tree: several forks", forks >= 2);
	const leaf = path.at(-1) as JsonObject;
	const lastMessage = entries.findLast((e) => e.type === "message");
	hit("leaf: not the last message", lastMessage !== undefined && !onPath.has(lastMessage));
	hit("leaf: not a message entry", leaf.type !== "message");
	hit(
		"duplicate id: on the branch",
		path.some((e) => ids.indexOf(e.id) !== ids.lastIndexOf(e.id)),
	);
	hit("parent: names nothing, on the branch", typeof (path[0] as JsonObject).parentId === "string");
	hit(
		"parent: a later entry, on the branch",
		path.some((e) => {
			const p = parentOf(e);
			return p !== undefined && entries.indexOf(p) > entries.indexOf(e);
		}),
	);
	hit("cycle: off the branch", hasCycle(entries, parentOf));
	hit(
		"id: an odd one, on the branch",
		path.some((e) => ODD_IDS.includes(e.id as string)),
	);
	hit(
		"parent: an odd id naming nothing, on the branch",
		ODD_IDS.includes(String(path[0]?.parentId)) || path[0]?.parentId === "hasOwnProperty",
	);

	// The entries in pi's context: the latest compaction's kept part and what follows it.
	const compactions = path.filter((e) => e.type === "compaction");
	let inContext = path;
	const compaction = compactions.at(-1);
	if (compaction !== undefined) {
		hit("compaction: on the branch");
		hit("compaction: several on the branch", compactions.length >= 2);
		const at = path.indexOf(compaction);
		const keptId = compaction.firstKeptEntryId;
		const kept = path.findIndex((e, k) => k < at && e.id === keptId);
		if (keptId === undefined) hit("kept: absent");
		else if (keptId === compaction.id) hit("kept: the compaction itself");
		else if (kept >= 0) {
			hit(`kept: a ${path[kept]?.type === "message" ? "message" : "non-message entry"} before it`);
			// Nested: the kept part holds an older compaction.
			hit(
				"kept: an older compaction within",
				path.slice(kept, at).some((e) => e.type === "compaction"),
			);
		} else if (path.some((e, k) => k > at && e.id === keptId)) hit("kept: after it, on the branch");
		else if (byId.has(keptId as string)) hit("kept: on another branch");
		else hit("kept: names nothing");
		if (log.spec.version === 1)
			hit(
				"kept: by v1 index",
				"firstKeptEntryIndex" in (log.entries[entries.indexOf(compaction)] as JsonObject),
			);
		inContext = [...(kept >= 0 ? path.slice(kept, at) : []), ...path.slice(at + 1)];
	}
	hit("context: 5 entries or more", inContext.length >= 5);
	for (const e of inContext) {
		hit(`entry: ${e.type === "message" ? `message ${String(message(e).role)}` : String(e.type)}`);
		hit(
			"timestamp: not what pi writes",
			!String(e.timestamp).endsWith("Z") || String(e.timestamp).length !== 24,
		);
		if (e.type === "branch_summary") hit(`branch summary: ${e.summary === "" ? "empty" : "text"}`);
		if (e.type === "custom_message") {
			hit(`custom_message: ${typeof e.content === "string" ? "string" : "blocks"}`);
			hit(`custom_message: display ${String(e.display)}`);
			const types = Array.isArray(e.content) ? (e.content as JsonObject[]).map((b) => b.type) : [];
			hit(
				"custom_message: a block neither text nor image",
				types.some((t) => t !== "text" && t !== "image"),
			);
		}
		if (e.type === "custom" && e.customType === "compact_context") hit("custom: compact_context");
		if (e.type !== "message") continue;
		const m = message(e);
		if (m.role === "bashExecution") hit(`bash: excludeFromContext ${String(m.excludeFromContext)}`);
		hit(
			"message: a string timestamp, made user text",
			typeof m.timestamp === "string" &&
				["custom", "hookMessage", "bashExecution"].includes(String(m.role)),
		);
		if (m.role === "user")
			hit(
				"user: an image",
				blocks(e).some((b) => b.type === "image"),
			);
		if (m.role === "assistant") {
			hit(
				"assistant: a tool call",
				blocks(e).some((b) => b.type === "toolCall"),
			);
			hit(
				"assistant: thinking",
				blocks(e).some((b) => b.type === "thinking"),
			);
		}
	}
	return [...hits];
}

function hasCycle(
	entries: JsonObject[],
	parentOf: (e: JsonObject) => JsonObject | undefined,
): boolean {
	for (const start of entries) {
		const seen = new Set<JsonObject>();
		for (let x: JsonObject | undefined = start; x !== undefined; x = parentOf(x)) {
			if (seen.has(x)) return true;
			seen.add(x);
		}
	}
	return false;
}

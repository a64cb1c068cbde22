/**
 * The bill: what a session's file records as billed, beside replay's
 * what-if. Every model call on every branch (rewound ones and sidechains
 * too), each API response once, a sub-agent's own files folded into the
 * session that ran it, priced from the recorded usage at the call's date. A
 * call that records no token at all was not billed and is no call: the
 * messages an agent writes in a model's place (Claude Code's `<synthetic>`
 * API error, OpenClaw's `delivery-mirror` and `gateway-injected`) carry
 * zero usage, and so does a request that failed before the provider
 * counted anything.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { billCollector } from "../import/bill.js";
import { SIDECHAIN_RECORD } from "../import/claude-code-records.js";
import { isOwnFormat, recordedCalls } from "../import/convert.js";
import { IMPORT_SOURCE } from "../import/entries.js";
import { badCount, tokenCount } from "../import/records.js";
import { Kind } from "../log/kinds.js";
import type { RecordedCall } from "../log/open-log.js";
import { OpenLog } from "../log/open-log.js";
import { ioError } from "../log/read.js";
import { SessionTree } from "../session/tree.js";
import type { Prices, TokenUsage } from "./prices.js";

/** A bill: calls and their recorded tokens (`input` uncached, as pi and providers count it) and cost. */
export interface Billed {
	calls: number;
	input: number;
	cacheRead: number;
	cacheWrite: number;
	output: number;
	/** Null when any billed call's model has no price (never a partial sum). */
	cost: number | null;
}

/** Whether a usage records no token at all: no call was billed. */
export function isZeroUsage(u: TokenUsage): boolean {
	return u.input === 0 && u.cacheRead === 0 && u.cacheWrite === 0 && u.output === 0;
}

/**
 * Whether an assistant message was written in a model's place rather than
 * answered by one: its usage counts zero tokens (a usage that records no
 * count says nothing), no price knows its model, and it
 * holds nothing only a model writes (a thinking block, a tool call). So
 * Claude Code's `<synthetic>` API error and OpenClaw's `delivery-mirror`
 * and `gateway-injected` text are not calls, and neither is a request that
 * failed unpriced and empty; a model that reports no usage still makes calls.
 */
export function inModelsPlace(message: Record<string, unknown>, priced: boolean): boolean {
	if (priced || !recordsZero(message.usage)) return false;
	const content = Array.isArray(message.content) ? message.content : [];
	return !content.some(
		(b) =>
			b !== null &&
			typeof b === "object" &&
			((b as { type?: unknown }).type === "thinking" ||
				(b as { type?: unknown }).type === "toolCall"),
	);
}

/** The bill of `calls`, each response once (by its key); models with no price go to `unpriced`. */
export function billOf(calls: readonly RecordedCall[], prices: Prices, unpriced: string[]): Billed {
	const bill: Billed = { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: 0 };
	const seen = new Set<string>();
	for (const call of calls) {
		if (isZeroUsage(call.usage)) continue;
		if (call.key !== undefined) {
			if (seen.has(call.key)) continue;
			seen.add(call.key);
		}
		bill.calls++;
		bill.input += call.usage.input;
		bill.cacheRead += call.usage.cacheRead;
		bill.cacheWrite += call.usage.cacheWrite;
		bill.output += call.usage.output;
		const cost = prices.costOf({
			provider: call.provider,
			model: call.model,
			usage: call.usage,
			date: call.timestamp,
		});
		if (cost === undefined) {
			if (!unpriced.includes(call.model)) unpriced.push(call.model);
			bill.cost = null;
		} else if (bill.cost !== null) bill.cost += cost;
	}
	return bill;
}

/** Two bills added. */
export function addBills(a: Billed, b: Billed): Billed {
	return {
		calls: a.calls + b.calls,
		input: a.input + b.input,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		output: a.output + b.output,
		cost: a.cost === null || b.cost === null ? null : a.cost + b.cost,
	};
}

/** An empty bill. */
export const NO_BILL: Billed = {
	calls: 0,
	input: 0,
	cacheRead: 0,
	cacheWrite: 0,
	output: 0,
	cost: 0,
};

/**
 * The calls a log of ours records: every assistant message in the tree,
 * whatever its branch (an entry shadowed by a later one of the same id is
 * not counted), keyed by its `responseId` where it has one; and in a log
 * imported from Claude Code, the responses of the sidechains it keeps as
 * records, billed as the importer bills them in the source.
 */
export function treeCalls(
	tree: SessionTree,
	fallbackTime: string,
	warn?: (line: number, reason: string) => void,
): RecordedCall[] {
	const out: RecordedCall[] = [];
	const indices: number[] = [];
	const others: number[] = [];
	const source = importSource(tree);
	// An imported resumed rollout's copied calls: billed in the session it resumes.
	const elsewhere = new Set(
		Array.isArray(source?.billedElsewhere) ? (source.billedElsewhere as unknown[]) : [],
	);
	for (let i = 0; i < tree.size; i++) {
		const kind = tree.kind(i);
		if (kind === Kind.Message) indices.push(i);
		else if (kind === Kind.Other) others.push(i);
	}
	if (tree.entries.everLetGo) tree.entries.materialize(indices);
	for (const i of indices) {
		const entry = tree.entry(i) as { id: string; timestamp?: unknown; message?: unknown };
		const m = entry.message as Record<string, unknown> | null;
		if (m === null || typeof m !== "object" || m.role !== "assistant") continue;
		if (tree.indexOf(entry.id) !== i || elsewhere.has(entry.id)) continue;
		const usage = usageOf(m.usage, (reason) => warn?.(tree.line(i), reason));
		if (usage === undefined) continue;
		const time =
			typeof m.timestamp === "number"
				? new Date(m.timestamp).toISOString()
				: typeof entry.timestamp === "string"
					? entry.timestamp
					: fallbackTime;
		out.push({
			...(typeof m.responseId === "string" ? { key: m.responseId } : {}),
			provider: typeof m.provider === "string" ? m.provider : "",
			model: typeof m.model === "string" ? m.model : "unknown",
			usage,
			timestamp: time,
			line: tree.line(i),
		});
	}
	if (source !== undefined) out.push(...sidechainCalls(tree, others));
	return out;
}

/** What the log's `import_source` entry (its first) says, when it was imported. */
export function importSource(tree: SessionTree): Record<string, unknown> | undefined {
	if (tree.size === 0) return undefined;
	if (tree.entries.everLetGo) tree.entries.materialize([0]);
	const first = tree.entry(0) as { customType?: unknown; data?: unknown };
	if (first.customType !== IMPORT_SOURCE) return undefined;
	return typeof first.data === "object" && first.data !== null
		? (first.data as Record<string, unknown>)
		: {};
}

/** The responses of the sidechain records among the entries `others`, as the importer bills them. */
function sidechainCalls(tree: SessionTree, others: readonly number[]): RecordedCall[] {
	if (tree.entries.everLetGo) tree.entries.materialize(others);
	const bill = billCollector("claude-code");
	for (const i of others) {
		const e = tree.entry(i) as { customType?: unknown; data?: unknown };
		if (e.customType === SIDECHAIN_RECORD) bill.record(e.data, tree.line(i));
	}
	return bill.calls();
}

/** Whether a usage records its counts, each of them zero (not a usage that records none). */
function recordsZero(value: unknown): boolean {
	if (value === null || typeof value !== "object") return false;
	const u = value as Record<string, unknown>;
	const counts = [u.input, u.cacheRead, u.cacheWrite, u.output].filter(
		(v) => typeof v === "number",
	);
	return counts.length > 0 && counts.every((v) => v === 0);
}

/**
 * pi's usage fields, absent ones as zero, and any that is no token count
 * ({@link tokenCount}); undefined when the message records none.
 */
export function usageOf(value: unknown, warn?: (reason: string) => void): TokenUsage | undefined {
	if (value === null || typeof value !== "object") return undefined;
	const u = value as Record<string, unknown>;
	const n = (field: string) => tokenCount(u[field], (v) => warn?.(badCount(field, v)));
	return {
		input: n("input"),
		cacheRead: n("cacheRead"),
		cacheWrite: n("cacheWrite"),
		output: n("output"),
	};
}

/**
 * The files of the sub-agents a Claude Code session ran: beside it in a
 * folder of its name (`<session>/subagents/agent-*.jsonl`), or, the older
 * layout, `agent-<id>.jsonl` beside it for each agent id its records name.
 */
export function subagentFiles(file: string, agentIds: readonly string[]): string[] {
	const folder = join(dirname(file), basename(file, ".jsonl"), "subagents");
	const found: string[] = [];
	if (existsSync(folder)) {
		for (const name of readdirSync(folder).sort())
			if (name.endsWith(".jsonl")) found.push(join(folder, name));
	}
	for (const id of agentIds) {
		const flat = join(dirname(file), `agent-${id}.jsonl`);
		if (flat !== file && !found.includes(flat) && existsSync(flat)) found.push(flat);
	}
	return found;
}

/** The calls a sub-agent's file records: as a Claude Code transcript, or as the log imported from one. */
export function fileCalls(file: string): RecordedCall[] {
	let bytes: Buffer;
	try {
		bytes = readFileSync(file);
	} catch (error) {
		throw ioError(file, error, "cannot read the sub-agent's file");
	}
	if (!isOwnFormat(bytes)) return recordedCalls(bytes, file);
	const log = new OpenLog(file, (entries, name) => new SessionTree(entries, name, false));
	log.readSync();
	return treeCalls(log.sink, log.header.timestamp);
}

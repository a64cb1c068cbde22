/**
 * The state of one Claude Code transcript's conversion, shared by the
 * converters of each record kind (claude-code-*.ts): the entries made so
 * far and their lines, and where each source uuid now hangs (its alias, the
 * conversation entry above it, the response block it belongs to).
 */
import type { Accounting } from "./accounting.js";
import type { OutEntry } from "./entries.js";
import type { Obj } from "./records.js";

/** An assistant message being merged from the records of one response. */
export interface Group {
	entry: OutEntry;
	messageId: string | undefined;
	/** The last entry of the response's block: the message, then its results in file order. */
	tail: string;
}

/** A transcript being converted. */
export class ClaudeCodeState {
	readonly entries: OutEntry[] = [];
	readonly lines: number[] = [];
	/** Source uuid → the entry its children hang on. */
	readonly alias = new Map<string, string | null>();
	/** Entry id → the nearest conversation entry at or above it. */
	readonly anchor = new Map<string, string | null>();
	/** Conversation entry id (message or result) → the response block it belongs to. */
	readonly blockOf = new Map<string, Group>();
	readonly toolNames = new Map<string, string>();
	readonly sidechains = new Map<string, { records: number; firstLine: number }>();
	readonly subagents: Obj[] = [];
	pendingCompaction: OutEntry | undefined;
	/** Summaries waiting to know whether their leaf is in the file. */
	readonly titles: { entry: OutEntry; leaf: string; text: string }[] = [];
	/** Whether a conversation record was read on the main line, and on a sidechain. */
	sawMain = false;
	sawSide = false;
	lastTime: string;
	lastMain: string | null = null;
	/** The last conversation entry in file order: the branch's end. */
	lastConversation: string | undefined;
	model: string | undefined;
	headerFields: {
		id?: string | undefined;
		cwd?: string | undefined;
		timestamp?: string;
		version?: string | undefined;
	} = {};

	constructor(
		readonly acc: Accounting,
		readonly sideAsMain: boolean,
		fallbackTime: string,
	) {
		this.lastTime = fallbackTime;
	}

	push(e: OutEntry, line: number, side = false): OutEntry {
		this.entries.push(e);
		this.lines.push(line);
		if (!side) this.lastMain = e.id;
		return e;
	}

	/** The entry a record's children hang on, or null; warns once for a parent not in the file. */
	parentOf(record: Obj, line: number, key = "parentUuid"): string | null {
		const p = record[key];
		if (typeof p !== "string") return null;
		const out = this.alias.get(p);
		if (out !== undefined) return out;
		this.acc.warn(
			line,
			`${key} ${JSON.stringify(p)} names no earlier record: hung on the record before it in the file`,
		);
		return this.lastMain;
	}

	/** Where a new conversation entry under `parent` hangs: after the response block it follows. */
	attach(parent: string | null): string | null {
		const a = parent === null ? null : (this.anchor.get(parent) ?? null);
		const group = a === null ? undefined : this.blockOf.get(a);
		return group === undefined || group.tail === a ? parent : group.tail;
	}

	/** The response block the entry `parent` hangs in, if any. */
	blockAbove(parent: string | null): Group | undefined {
		const above = parent === null ? undefined : this.anchor.get(parent);
		return above == null ? undefined : this.blockOf.get(above);
	}

	/** A conversation entry under its own uuid: what follows hangs on it, above it is itself, the branch ends there for now. */
	conversationAt(uuid: string): void {
		this.alias.set(uuid, uuid);
		this.anchor.set(uuid, uuid);
		this.lastConversation = uuid;
	}
}

/**
 * The state of one Codex rollout's conversion, shared by the converters of
 * each record kind (codex-*.ts): the entries made so far and their lines,
 * the branch's tip and turns, the assistant message being assembled from a
 * response's items, the model and usage seen last; and what several kinds
 * make alike (a kept record, a part of the assistant message, a compaction).
 */
import type { Accounting } from "./accounting.js";
import { usageOf } from "./codex-items.js";
import { customEntry, entry, millis, type OutEntry } from "./entries.js";
import type { Obj } from "./records.js";

/** What the remote compaction's summary says, since its text is encrypted. */
export const ENCRYPTED_SUMMARY =
	"[Codex compacted the conversation on its server; the summary is encrypted and cannot be read here]";

/** A rollout being converted. */
export class CodexState {
	readonly entries: OutEntry[] = [];
	readonly lines: number[] = [];
	tip: string | null = null;
	open: OutEntry | undefined;
	lastAssistant: OutEntry | undefined;
	/** Whether the last assistant message has its call's usage already. */
	lastHasUsage = false;
	/** A call's usage recorded before its output (Codex 0.58): the next assistant message's. */
	pendingUsage: Obj | undefined;
	/** Whether that usage was billed in another session. */
	pendingElsewhere = false;
	/** The assistant messages whose calls were billed in another session (a resumed rollout's copy). */
	readonly elsewhere: string[] = [];
	/** The running total of the last usage seen: a count written twice is one call. */
	lastTotal: string | undefined;
	readonly calls = new Map<string, string>();
	/** The turns on the current branch: each user message and the entry it hangs on. */
	readonly turns: { parent: string | null }[] = [];
	model: string | undefined;
	effort: string | undefined;
	provider = "openai";
	time: string;
	head: Obj | undefined;
	readonly forks: Obj[] = [];

	constructor(
		readonly acc: Accounting,
		start: string,
		/** Whether the count on a line was billed in another session (a resumed rollout's copy). */
		readonly billedElsewhere: (line: number) => boolean = () => false,
	) {
		this.time = start;
	}

	push(e: OutEntry, line: number): OutEntry {
		this.entries.push(e);
		this.lines.push(line);
		this.tip = e.id;
		return e;
	}

	close(): void {
		this.open = undefined;
	}

	keep(type: string, data: unknown, line: number): void {
		this.push(customEntry(`codex/${type}`, `cx-${line}`, this.tip, this.time, data), line);
		this.acc.custom(type);
	}

	assistantPart(block: Obj, line: number): void {
		if (this.open === undefined) {
			this.open = this.push(
				entry("message", `cx-${line}`, this.tip, this.time, {
					message: {
						role: "assistant",
						content: [],
						api: "openai-responses",
						provider: this.provider,
						model: this.model ?? "unknown",
						usage: usageOf(undefined),
						stopReason: "stop",
						timestamp: millis(this.time),
					},
				}),
				line,
			);
			this.lastAssistant = this.open;
			this.lastHasUsage = this.pendingUsage !== undefined;
			if (this.pendingUsage !== undefined) {
				(this.open.message as Obj).usage = usageOf(this.pendingUsage);
				if (this.pendingElsewhere) this.elsewhere.push(this.open.id);
				this.pendingUsage = undefined;
			}
		}
		const message = this.open.message as Obj;
		(message.content as Obj[]).push(block);
		if (block.type === "toolCall") message.stopReason = "toolUse";
	}

	compaction(summary: string, encrypted: boolean, line: number, details: Obj): void {
		this.close();
		if (encrypted)
			this.acc.warn(
				line,
				"a remote compaction: its summary is encrypted; the compaction says so instead",
			);
		else if (summary === "") this.acc.warn(line, "a compaction with an empty summary");
		const id = `cx-${line}`;
		this.push(
			entry("compaction", id, this.tip, this.time, {
				summary: encrypted ? ENCRYPTED_SUMMARY : summary,
				firstKeptEntryId: id,
				tokensBefore: 0,
				details: { source: "codex", encrypted, ...details },
			}),
			line,
		);
	}
}

/**
 * The model calls a Claude Code or Codex file records as billed, read from
 * its records as they go to the converter: what replay's bill sums, each
 * API response once. Claude Code: every assistant record, on the main line
 * and on sidechains alike, one per response (`message.id` with the
 * `requestId`; the records of one response repeat its usage, the last one
 * is kept, as the converter keeps it). Codex: each `token_count` event's
 * `last_token_usage`, a count written twice once (the running total tells),
 * and none of a resumed rollout's copy of the rollout it resumes: after a
 * `session_meta` of another session (not a fork) the counts are that
 * session's until the running total falls (this session's first call
 * starts it again; a copy that ends without one is all the older session's).
 * Pure.
 */
import type { RecordedCall } from "../log/open-log.js";
import { usageOf as claudeUsage } from "./claude-code-blocks.js";
import { usageOf as codexUsage } from "./codex-items.js";
import { isoTime } from "./entries.js";
import { isObj, type Obj, obj, str } from "./records.js";

/** Collects the billed calls of one file's records, fed one at a time. */
export interface BillCollector {
	record(value: unknown, line: number): void;
	calls(): RecordedCall[];
	/** Whether the count on `line` (a record already seen) was billed in another session. */
	billedElsewhere(line: number): boolean;
}

/** A collector for `format`'s records. */
export function billCollector(format: "claude-code" | "codex"): BillCollector {
	return format === "claude-code" ? new ClaudeCodeBill() : new CodexBill();
}

const usageFields = (u: Obj) => ({
	input: u.input as number,
	cacheRead: u.cacheRead as number,
	cacheWrite: u.cacheWrite as number,
	output: u.output as number,
});

class ClaudeCodeBill implements BillCollector {
	private readonly byKey = new Map<string, RecordedCall>();
	private lastTime = new Date(0).toISOString();

	record(value: unknown, line: number): void {
		if (!isObj(value)) return;
		this.lastTime = isoTime(value.timestamp, this.lastTime);
		if (value.type !== "assistant") return;
		const message = obj(value, "message");
		if (message === undefined || !isObj(message.usage)) return;
		const id = str(message, "id");
		const request = str(value, "requestId");
		const key = id === undefined ? `line ${line}` : `${id}:${request ?? ""}`;
		const earlier = this.byKey.get(key);
		const call: RecordedCall = {
			...(id === undefined ? {} : { key }),
			provider: "anthropic",
			model: str(message, "model") ?? "unknown",
			usage: usageFields(claudeUsage(message.usage)),
			timestamp: earlier?.timestamp ?? this.lastTime,
			line: earlier?.line ?? line,
		};
		this.byKey.set(key, call);
	}

	calls(): RecordedCall[] {
		return [...this.byKey.values()];
	}

	billedElsewhere(): boolean {
		return false;
	}
}

class CodexBill implements BillCollector {
	private readonly out: RecordedCall[] = [];
	private session: string | undefined;
	private provider = "openai";
	private model = "unknown";
	private lastTotal: string | undefined;
	/** The running total's last size, to see it start again. */
	private lastSize: number | undefined;
	/** Inside a resumed rollout's copy of another session's records. */
	private copying = false;
	/** The lines of the copy's counts. */
	private readonly copied = new Set<number>();
	private time = new Date(0).toISOString();

	record(value: unknown, line: number): void {
		if (!isObj(value)) return;
		this.time = isoTime(value.timestamp, this.time);
		const payload = obj(value, "payload");
		if (payload === undefined) return;
		if (value.type === "session_meta") this.meta(payload);
		else if (value.type === "turn_context") this.model = str(payload, "model") ?? this.model;
		else if (value.type === "event_msg" && payload.type === "token_count") {
			const info = obj(payload, "info");
			if (info !== undefined) this.count(info, line);
		}
	}

	private meta(payload: Obj): void {
		const id = str(payload, "id");
		if (this.session === undefined) {
			this.session = id ?? "";
			this.provider = str(payload, "model_provider") ?? this.provider;
			return;
		}
		const fork = str(payload, "forked_from_id") ?? str(payload, "parent_thread_id");
		if (id !== undefined && id !== this.session && fork === undefined) {
			this.copying = true;
			this.lastSize = undefined;
		}
	}

	private count(info: Obj, line: number): void {
		const last = obj(info, "last_token_usage");
		if (last === undefined) return;
		const running = obj(info, "total_token_usage") ?? last;
		const total = JSON.stringify(running);
		if (total === this.lastTotal) return;
		this.lastTotal = total;
		const size = typeof running.total_tokens === "number" ? running.total_tokens : undefined;
		const restarted = size !== undefined && this.lastSize !== undefined && size < this.lastSize;
		this.lastSize = size ?? this.lastSize;
		if (this.copying && !restarted) {
			this.copied.add(line);
			return;
		}
		this.copying = false;
		this.out.push({
			provider: this.provider,
			model: this.model,
			usage: usageFields(codexUsage(last)),
			timestamp: this.time,
			line,
		});
	}

	calls(): RecordedCall[] {
		return this.out;
	}

	billedElsewhere(line: number): boolean {
		return this.copied.has(line);
	}
}

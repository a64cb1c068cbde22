/**
 * No stale continuation, ever: a client that applies every `load` reply
 * (keeping `from` messages and appending the rest, or starting over on a
 * reset) holds, after every change to the log, exactly what a fresh render
 * of the log gives. The changes are the ones a log meets in the wild:
 * appends (on the branch, on another branch, a compaction), appends that
 * reuse an earlier id or bring an orphan's parent, in-place edits that keep
 * the size, grow or shrink the file, truncations and replacements.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/service/context-service.js";
import { convertToLlm } from "../../src/service/convert.js";
import { runs, TIMEOUT } from "../support/properties.js";
import { inProcess } from "../support/serve.js";
import { tempDir } from "../support/temp.js";

const dir = tempDir("theway-cursors-");
const HEADER = JSON.stringify({
	type: "session",
	version: 3,
	id: "cursor-props",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/work",
});

type Step =
	| { op: "append"; count: number; big: boolean }
	| { op: "branch"; at: number }
	| { op: "compact"; keep: number }
	| { op: "duplicate"; of: number }
	| { op: "orphan" }
	| { op: "adopt" }
	| { op: "edit"; at: number; delta: -3 | 0 | 5 }
	| { op: "truncate"; lines: number }
	| { op: "replace" };

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			op: fc.constant("append" as const),
			count: fc.integer({ min: 1, max: 3 }),
			big: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("branch" as const), at: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("compact" as const), keep: fc.nat() }) },
	{ weight: 2, arbitrary: fc.record({ op: fc.constant("duplicate" as const), of: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("orphan" as const) }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("adopt" as const) }) },
	{
		weight: 3,
		arbitrary: fc.record({
			op: fc.constant("edit" as const),
			at: fc.nat(),
			delta: fc.constantFrom(-3 as const, 0 as const, 5 as const),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			op: fc.constant("truncate" as const),
			lines: fc.integer({ min: 1, max: 3 }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("replace" as const) }) },
);

/** The log as a list of entries (objects), written out whole or appended to. */
class Log {
	readonly entries: Record<string, unknown>[] = [];
	private next = 0;
	private orphanParent: string | undefined;
	constructor(readonly path: string) {
		this.write();
	}
	get leafId(): string | null {
		const last = this.entries.at(-1);
		return last === undefined ? null : (last.id as string);
	}
	private message(
		parentId: string | null,
		big = false,
		id = `e${this.next++}`,
	): Record<string, unknown> {
		const n = this.next;
		const timestamp = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
		const role = n % 3 === 0 ? "user" : n % 3 === 1 ? "assistant" : "toolResult";
		const text = big ? `${"x".repeat(9000)} (${id})` : `text of ${id} (${n})`;
		const message =
			role === "toolResult"
				? {
						role,
						toolCallId: `call-${n}`,
						toolName: "read",
						content: [{ type: "text", text }],
						isError: false,
						timestamp: n,
					}
				: role === "assistant"
					? { role, content: [{ type: "text", text }], provider: "p", model: "m", timestamp: n }
					: { role, content: [{ type: "text", text }], timestamp: n };
		return { type: "message", id, parentId, timestamp, message };
	}
	private line(entry: Record<string, unknown>): string {
		return `${JSON.stringify(entry)}\n`;
	}
	write(path = this.path): void {
		writeFileSync(path, `${HEADER}\n${this.entries.map((e) => this.line(e)).join("")}`);
	}
	private append(entries: Record<string, unknown>[]): void {
		this.entries.push(...entries);
		writeFileSync(this.path, entries.map((e) => this.line(e)).join(""), { flag: "a" });
	}
	apply(s: Step): void {
		const pick = (k: number) => this.entries[k % Math.max(1, this.entries.length)];
		switch (s.op) {
			case "append": {
				const added: Record<string, unknown>[] = [];
				let parent = this.leafId;
				for (let k = 0; k < s.count; k++) {
					const entry = this.message(parent, s.big && k === 0);
					added.push(entry);
					parent = entry.id as string;
				}
				this.append(added);
				return;
			}
			case "branch":
				this.append([this.message((pick(s.at)?.id as string | undefined) ?? null)]);
				return;
			case "compact": {
				const kept = pick(s.keep);
				if (kept === undefined) return;
				const id = `c${this.next++}`;
				this.append([
					{
						type: "compaction",
						id,
						parentId: this.leafId,
						timestamp: new Date(Date.UTC(2026, 0, 2)).toISOString(),
						summary: `summary ${id}`,
						firstKeptEntryId: kept.id,
						tokensBefore: 100,
					},
				]);
				return;
			}
			case "duplicate": {
				const earlier = pick(s.of);
				if (earlier === undefined) return;
				this.append([this.message(this.leafId, false, earlier.id as string)]);
				return;
			}
			case "orphan":
				this.orphanParent = `missing-${this.next++}`;
				this.append([this.message(this.orphanParent)]);
				return;
			case "adopt":
				if (this.orphanParent === undefined) return;
				this.append([this.message(this.leafId, false, this.orphanParent)]);
				this.orphanParent = undefined;
				return;
			case "edit": {
				const target = pick(s.at);
				const message = target?.message as { content?: { text: string }[] } | undefined;
				const block = message?.content?.[0];
				if (block === undefined) return;
				const text = block.text;
				block.text =
					s.delta === 0
						? `${text.slice(0, -1)}${text.at(-1) === "!" ? "?" : "!"}`
						: s.delta < 0
							? text.slice(0, Math.max(1, text.length + s.delta))
							: `${text}${"+".repeat(s.delta)}`;
				this.write();
				return;
			}
			case "truncate":
				this.entries.splice(Math.max(0, this.entries.length - s.lines));
				this.write();
				return;
			case "replace": {
				const other = `${this.path}.new`;
				this.write(other);
				renameSync(other, this.path);
			}
		}
	}
}

/** What a fresh render of the log gives, in `format`. */
function fresh(path: string, format: "llm" | "agent") {
	const service = new ContextService();
	const bundle = service.loadSync(path);
	const messages = format === "agent" ? bundle.messages : convertToLlm(bundle);
	return { systemPrompt: bundle.systemPrompt, messages: JSON.parse(JSON.stringify(messages)) };
}

describe("the sidecar's cursors", () => {
	it(
		"never continue a stale context: a client applying every reply equals a fresh render",
		async () => {
			const reached = new Map<string, number>();
			const count = (key: string) => reached.set(key, (reached.get(key) ?? 0) + 1);
			let run = 0;
			await fc.assert(
				fc.asyncProperty(
					fc.array(step, { minLength: 4, maxLength: 14 }),
					fc.constantFrom("llm" as const, "agent" as const),
					async (steps, format) => {
						const log = new Log(join(dir, `session-${run++}.jsonl`));
						log.apply({ op: "append", count: 2, big: false });
						const { client } = inProcess();
						try {
							let held: unknown[] = [];
							let prompt = "";
							let cursor: string | undefined;
							for (const s of [undefined, ...steps]) {
								if (s !== undefined) log.apply(s);
								const reply = await client.call("load", {
									path: log.path,
									format,
									...(cursor === undefined ? {} : { since: cursor }),
								});
								expect(reply.error).toBeUndefined();
								const r = reply.result as {
									messages: unknown[];
									from: number;
									cursor: string;
									reset: boolean;
									resetReason?: string;
									systemPrompt?: string;
								};
								held =
									r.reset || cursor === undefined
										? r.messages
										: [...held.slice(0, r.from), ...r.messages];
								if (r.systemPrompt !== undefined) prompt = r.systemPrompt;
								cursor = r.cursor;
								if (s !== undefined) count(s.op);
								if (cursor !== undefined && s !== undefined) {
									count(r.reset ? `reset:${r.resetReason}` : "continued");
									expect(r.reset).toBe(r.resetReason !== undefined);
								}
								const expected = fresh(log.path, format);
								expect(held).toEqual(expected.messages);
								expect(prompt).toBe(expected.systemPrompt);
							}
						} finally {
							client.end();
						}
					},
				),
				{ numRuns: runs(0.3) },
			);
			// The generator reaches what the property is about, whatever the seed.
			for (const op of ["append", "duplicate", "edit", "truncate", "replace"]) {
				expect(reached.get(op), op).toBeGreaterThan(0);
			}
			expect(reached.get("continued")).toBeGreaterThan(0);
			expect(reached.get("reset:rewritten") ?? 0).toBeGreaterThan(0);
		},
		TIMEOUT,
	);
});

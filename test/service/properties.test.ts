/**
 * Property-based tests of valid logs: generated session logs against the
 * contract's promises and the design's invariants. `FUZZ_RUNS` sets the runs
 * per property (default 100). The expected values (the metadata fold, the
 * leaf, the active branch) are computed from the generated entries, not by
 * the library (`test/support/properties.ts`).
 */
import { appendFileSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ContextError, ContextService } from "../../src/index.js";
import { entryId, type SessionLog, serialize, sessionLog } from "../support/arbitraries.js";
import { text } from "../support/arbitrary-text.js";
import { cutPicks, cutPoints } from "../support/cuts.js";
import {
	activeBranch,
	asJson,
	budget,
	CRLF_HEADER_ONLY,
	CRLF_ONE_ENTRY,
	expectContextError,
	foldMetadata,
	isCompactContext,
	leafOf,
	load,
	loaded,
	type Outcome,
	retain,
	runs,
	STRICT,
	TIMEOUT,
	TOLERANT,
	tally,
	withLog,
} from "../support/properties.js";

describe("properties of valid logs", () => {
	it(
		"1. compile, deterministically (fresh services give byte-identical bundles)",
		() => {
			const t = tally();
			fc.assert(
				fc.property(sessionLog(), (log) => {
					withLog(serialize(log), (path) => {
						const service = new ContextService(STRICT);
						const first = loaded(load(path, {}, service));
						const second = loaded(load(path));
						expect(JSON.stringify(second)).toBe(JSON.stringify(first));
						expect(second.systemPrompt).toBe(first.systemPrompt);
						expect(first.meta.entryCount).toBe(log.entries.length);
						expect(first.meta.leafId).toBe(leafOf(log.entries)?.id ?? null);
						// The default (tolerant) read of a valid log is the strict one, without a warning.
						expect(JSON.stringify(loaded(load(path, TOLERANT)))).toBe(JSON.stringify(first));
						// Entries let go under a memory budget and read back give the same bundle.
						expect(JSON.stringify(loaded(load(path, { retainBytes: 0 })))).toBe(
							JSON.stringify(first),
						);
						t.hit("a compaction on the branch", first.messages[0]?.role === "compactionSummary");
						t.hit(
							"a leaf that is not a message",
							log.entries.find((e) => e.id === first.meta.leafId)?.type !== "message" &&
								first.meta.leafId !== null,
						);
					});
				}),
				{ numRuns: runs() },
			);
			// The read-back under a budget is about compacted logs; the leaf rule about every type.
			t.reached("a compaction on the branch", runs());
			t.reached("a leaf that is not a message", runs());
		},
		TIMEOUT,
	);

	it(
		"2. sections are in order, each once; lineage iff the folded metadata has a collapseNodeId",
		() => {
			const TAGS = [
				"<harness>",
				"</harness>",
				"<tools>",
				"</tools>",
				"<environment>",
				"</environment>",
				"<lineage>",
				"</lineage>",
			];
			const t = tally();
			fc.assert(
				fc.property(sessionLog(), (log) => {
					const nodeId = foldMetadata(log.entries).get("collapseNodeId");
					const lineage = typeof nodeId === "string" && nodeId.trim() !== "";
					t.hit(lineage ? "lineage" : "no lineage");
					withLog(serialize(log), (path) => {
						const { systemPrompt } = loaded(load(path));
						const found = systemPrompt.split("\n").filter((line) => TAGS.includes(line));
						expect(found).toEqual(lineage ? TAGS : TAGS.slice(0, 6));
					});
				}),
				{ numRuns: runs() },
			);
			t.reached("lineage", runs());
			t.reached("no lineage", runs());
		},
		TIMEOUT,
	);

	it(
		"3. collapse_context appears once iff a compact_context is on the active branch, from the last one; no summary text in the system prompt",
		() => {
			const t = tally();
			fc.assert(
				fc.property(sessionLog(), (log) => {
					const latest = activeBranch(log.entries).filter(isCompactContext).at(-1);
					t.hit(latest === undefined ? "none on the branch" : "on the branch");
					const blanked: SessionLog = {
						...log,
						entries: log.entries.map((e) =>
							isCompactContext(e) ? { ...e, data: { summary: "" } } : e,
						),
					};
					const withoutSummaries = withLog(serialize(blanked), (p) => loaded(load(p)).systemPrompt);
					withLog(serialize(log), (path) => {
						const bundle = loaded(load(path));
						const at = bundle.messages.flatMap((m, i) =>
							m.role === "collapse_context" ? [i] : [],
						);
						expect(at).toHaveLength(latest === undefined ? 0 : 1);
						if (latest !== undefined) expect(bundle.entryIds[at[0] as number]).toBe(latest.id);
						// The system prompt does not depend on any summary: the same log with
						// every summary blanked renders the same prompt.
						expect(bundle.systemPrompt).toBe(withoutSummaries);
						t.hit(
							"a summary with text",
							log.entries.some(
								(e) => isCompactContext(e) && (e.data as { summary: string }).summary.trim() !== "",
							),
						);
					});
				}),
				{ numRuns: runs() },
			);
			t.reached("on the branch", runs());
			t.reached("none on the branch", runs());
			t.reached("a summary with text", runs());
		},
		TIMEOUT,
	);

	it(
		"4. appending a user message at the leaf keeps the system prompt and every earlier message (fresh and incremental)",
		() => {
			fc.assert(
				fc.property(sessionLog(), text, retain, (log, content, retainBytes) => {
					const appended = {
						type: "message",
						id: entryId(log.entries.length, "appended"),
						parentId: leafOf(log.entries)?.id ?? null,
						timestamp: "2026-02-01T00:00:00.000Z",
						message: { role: "user", content, timestamp: 1 },
					};
					const line = `${JSON.stringify(appended)}\n`;
					const message = JSON.parse(JSON.stringify(appended.message)) as unknown;
					withLog(serialize(log), (path) => {
						const kept = new ContextService(budget(retainBytes));
						const before = loaded(load(path, {}, kept));
						const beforeJson = JSON.stringify(before);
						expect(JSON.stringify(loaded(load(path)))).toBe(beforeJson);
						appendFileSync(path, line);
						const fresh = loaded(load(path));
						const incremental = loaded(load(path, {}, kept));
						for (const after of [fresh, incremental]) {
							expect(after.systemPrompt).toBe(before.systemPrompt);
							expect(after.messages).toHaveLength(before.messages.length + 1);
							expect(after.messages.slice(0, -1)).toStrictEqual(before.messages);
							expect(after.messages.at(-1)).toStrictEqual(message);
						}
						expect(asJson(incremental)).toStrictEqual(asJson(fresh));
						// A bundle handed out earlier is not changed by a later load.
						expect(JSON.stringify(before)).toBe(beforeJson);
					});
				}),
				{ numRuns: runs() },
			);
		},
		TIMEOUT,
	);

	it(
		"4b. a log written in arbitrary byte pieces: each incremental reload equals a fresh load",
		() => {
			fc.assert(
				fc.property(sessionLog(), cutPicks, retain, (log, picks, retainBytes) => {
					const bytes = Buffer.from(serialize(log));
					const cuts = cutPoints(bytes, picks);
					const first = cuts[0] as number;
					withLog(bytes.subarray(0, first), (path) => {
						const kept = new ContextService(budget(retainBytes));
						let written = first;
						for (const cut of cuts) {
							appendFileSync(path, bytes.subarray(written, cut));
							written = cut;
							const incremental = loaded(load(path, {}, kept));
							const fresh = loaded(load(path));
							expect(asJson(incremental), `after ${cut} of ${bytes.length} bytes`).toStrictEqual(
								asJson(fresh),
							);
						}
					});
				}),
				{
					numRuns: runs(),
					examples: [
						[
							CRLF_ONE_ENTRY,
							[
								{ at: "beforeEol", n: 1 },
								{ at: "anywhere", n: 3 },
							],
							undefined,
						],
					],
				},
			);
		},
		TIMEOUT,
	);
	it(
		"4c. after incremental reloads, a bad line appended is reported at the line a fresh load names",
		() => {
			const t = tally();
			fc.assert(
				fc.property(sessionLog(), cutPicks, fc.boolean(), (log, picks, strict) => {
					const bytes = Buffer.from(serialize(log));
					const cuts = cutPoints(bytes, picks);
					const first = cuts[0] as number;
					const options = strict ? STRICT : TOLERANT;
					withLog(bytes.subarray(0, first), (path) => {
						const kept = new ContextService(options);
						let written = first;
						for (const cut of cuts) {
							appendFileSync(path, bytes.subarray(written, cut));
							written = cut;
							load(path, {}, kept);
						}
						appendFileSync(path, '{"not json\n');
						const incremental = load(path, {}, kept);
						const fresh = load(path, options);
						t.hit(strict ? "strict" : "tolerant");
						if (!strict) {
							const bundle = loaded(fresh);
							expect(JSON.stringify(loaded(incremental))).toBe(JSON.stringify(bundle));
							t.hit(
								"tolerant, the bad line named",
								bundle.meta.diagnostics.some((d) => d.code === "skipped_line"),
							);
						} else {
							const where = (o: Outcome) =>
								o.ok
									? "loaded"
									: `${(o.error as ContextError).code} at line ${(o.error as ContextError).line}`;
							expect(where(incremental), "incremental reload vs fresh load").toBe(where(fresh));
							const grown = readFileSync(path);
							if (!incremental.ok) expectContextError(incremental.error, path, grown);
							if (!fresh.ok) expectContextError(fresh.error, path, grown);
						}
					});
				}),
				{ numRuns: runs(), examples: [[CRLF_HEADER_ONLY, [{ at: "beforeEol", n: 1 }], true]] },
			);
			t.reached("strict", runs(), 0.2);
			t.reached("tolerant, the bad line named", runs(), 0.2);
		},
		TIMEOUT,
	);
});

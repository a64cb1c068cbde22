/**
 * Prefix stability: whether a tool result is virtualized depends on that
 * result and the pinned set alone, so appending entries (more large results
 * among them) never changes a provider-ready message already sent. Checked
 * over random sessions whose results fall on both sides of the threshold,
 * through a service that keeps the session open and through fresh loads.
 */
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { HEADER, user, writeLog } from "../support/session.js";
import { longText, toolCall, toolResult, virtualizingSet } from "../support/tool-results.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

/** One turn: a user message, or a tool call and its result (small or large, maybe failed). */
const turn = fc.oneof(
	fc.record({ kind: fc.constant("user" as const), text: fc.string({ maxLength: 40 }) }),
	fc.record({
		kind: fc.constant("tool" as const),
		lines: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 12, max: 120 })),
		word: fc.constantFrom("line", "données", "строка", "行", "😀"),
		isError: fc.boolean(),
		image: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
	}),
);
type Turn = typeof turn extends fc.Arbitrary<infer T> ? T : never;

/** The log lines of `turns`, chained after `parent`, ids numbered from `from`. */
function linesOf(turns: readonly Turn[], parent: string | null, from: number) {
	const out: unknown[] = [];
	let last = parent;
	turns.forEach((t, i) => {
		const n = from + i;
		if (t.kind === "user") {
			out.push(user(`u${n}`, last, t.text));
			last = `u${n}`;
			return;
		}
		const content: unknown[] = [{ type: "text", text: longText(t.lines, t.word) }];
		if (t.image !== undefined)
			content.push({ type: "image", data: "i".repeat(t.image), mimeType: "image/png" });
		out.push(
			toolCall(`a${n}`, last, `c${n}`),
			toolResult(`r${n}`, `a${n}`, `c${n}`, content, { isError: t.isError }),
		);
		last = `r${n}`;
	});
	return { lines: out, last };
}

describe("virtualization is prefix-stable", () => {
	const templates = virtualizingSet();

	it("appending entries never changes an earlier provider-ready message", () => {
		const reached = { stubs: 0, whole: 0, appendedStubs: 0 };
		fc.assert(
			fc.property(
				fc.array(turn, { minLength: 1, maxLength: 8 }),
				fc.array(fc.array(turn, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
				(start, appends) => {
					const service = new ContextService({ templates });
					const first = linesOf(start, null, 0);
					const log = writeLog([HEADER, ...first.lines]);
					let bundle = service.loadSync(log);
					let sent = service.convertToLlm(bundle);
					reached.stubs += bundle.meta.virtualized.length;
					reached.whole +=
						bundle.messages.filter((m) => m.role === "toolResult").length -
						bundle.meta.virtualized.length;
					let last = first.last;
					let next = start.length;
					for (const more of appends) {
						const added = linesOf(more, last, next);
						appendFileSync(log, `${added.lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
						last = added.last;
						next += more.length;
						const before = bundle.meta.virtualized;
						bundle = service.loadSync(log);
						const now = service.convertToLlm(bundle);
						expect(now.slice(0, sent.length)).toStrictEqual(sent);
						expect(bundle.meta.virtualized.slice(0, before.length)).toStrictEqual(before);
						reached.appendedStubs += bundle.meta.virtualized.length - before.length;
						sent = now;
					}
					// The session kept open gives what a fresh load gives.
					const fresh = new ContextService({ templates });
					expect(fresh.convertToLlm(fresh.loadSync(log))).toStrictEqual(sent);
				},
			),
			{ numRuns: RUNS },
		);
		// The generator reaches results on both sides of the threshold, and large appended ones.
		expect(reached.stubs).toBeGreaterThan(0);
		expect(reached.whole).toBeGreaterThan(0);
		expect(reached.appendedStubs).toBeGreaterThan(0);
	});
});

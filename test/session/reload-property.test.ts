/**
 * A kept-open session, reloaded after any sequence of appends (to the leaf,
 * to an earlier entry, compactions, collapse summaries, custom messages,
 * summaries with bad timestamps, a duplicate id) and loads of any leaf, gives
 * exactly what a fresh load of the file gives, and the bundles it handed out
 * before never change.
 */
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextService, type LoadOptions } from "../../src/index.js";
import { runs, TIMEOUT } from "../support/properties.js";
import { assistant, compactContext, entry, HEADER, user, writeLog } from "../support/session.js";

type Op =
	| { kind: "user" | "assistant" | "custom" | "summary" | "collapse" | "compaction"; at: number }
	| { kind: "load"; at: number };

const op = fc.record({
	kind: fc.constantFrom(
		"user",
		"user",
		"assistant",
		"custom",
		"summary",
		"collapse",
		"compaction",
		"load",
	),
	// Where the entry hangs or which leaf is loaded: 0 the leaf, else that many back (mostly the leaf).
	at: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(6)),
}) as fc.Arbitrary<Op>;

function lineOf(kind: Op["kind"], id: string, parent: string, ids: string[]): unknown {
	switch (kind) {
		case "assistant":
			return assistant(id, parent, `answer ${id}`);
		case "custom":
			return entry(id, parent, { type: "custom_message", customType: "note", content: id });
		case "summary":
			return { ...entry(id, parent, { type: "branch_summary", summary: id }), timestamp: "soon" };
		case "collapse":
			return compactContext(id, parent, `collapsed up to ${id}`);
		case "compaction": {
			const kept = ids[Math.max(0, ids.indexOf(parent) - 2)];
			return entry(id, parent, { type: "compaction", summary: id, firstKeptEntryId: kept });
		}
		default:
			return user(id, parent, `question ${id}`);
	}
}

describe("a kept-open session", () => {
	it(
		"reloads as a fresh load would, whatever was appended, and never changes a bundle it handed out",
		() => {
			fc.assert(
				fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), fc.boolean(), (ops, dup) => {
					const ids = ["u0"];
					const path = writeLog([HEADER, user("u0", null, "start")]);
					const service = new ContextService();
					const handed: [ReturnType<ContextService["loadSync"]>, string][] = [];
					let n = 0;
					for (const { kind, at } of ops) {
						const target = ids[Math.max(0, ids.length - 1 - at)] as string;
						const options: LoadOptions = kind === "load" ? { leaf: target } : {};
						if (kind !== "load") {
							const id = dup && n === 5 ? "u0" : `e${++n}`;
							appendFileSync(path, `${JSON.stringify(lineOf(kind, id, target, ids))}\n`);
							ids.push(id);
						}
						const bundle = service.loadSync(path, options);
						const expected = JSON.stringify(new ContextService().loadSync(path, options));
						// Every other bundle is read now, the others only once all appends are done.
						if (handed.length % 2 === 0) expect(JSON.stringify(bundle)).toBe(expected);
						handed.push([bundle, expected]);
					}
					for (const [bundle, expected] of handed) expect(JSON.stringify(bundle)).toBe(expected);
				}),
				{ numRuns: runs() },
			);
		},
		TIMEOUT,
	);

	it(
		"reloads as a fresh load would when entries skipped as invalid tie the tree (few ids, parents anywhere)",
		() => {
			const ID = fc.constantFrom("a", "b", "c", "d", "e");
			const line = fc.record({
				id: ID,
				parent: fc.option(ID, { nil: null, freq: 4 }),
				invalid: fc.boolean(),
			});
			let reached = 0;
			fc.assert(
				fc.property(
					fc.array(line, { minLength: 1, maxLength: 12 }),
					fc.array(fc.nat(12), { minLength: 1, maxLength: 2 }),
					(lines, cuts) => {
						const text = lines.map(({ id, parent, invalid }, k) => {
							const value = user(id, parent, `${id} ${k}`);
							// An invalid entry: its message has no content, its id and parentId stand.
							return `${JSON.stringify(invalid ? { ...value, message: { role: "user" } } : value)}\n`;
						});
						const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort(
							(a, b) => a - b,
						);
						const path = writeLog([HEADER]);
						const service = new ContextService();
						let done = 0;
						for (const end of [...at, text.length]) {
							appendFileSync(path, text.slice(done, end).join(""));
							done = end;
							const bundle = service.loadSync(path);
							const fresh = new ContextService().loadSync(path);
							expect(JSON.stringify(bundle)).toBe(JSON.stringify(fresh));
						}
						if (lines.some((l) => l.invalid) && at.some((c) => c > 0 && c < text.length)) reached++;
					},
				),
				{ numRuns: Math.max(runs(), 300) },
			);
			// The case it is about: invalid entries, and the file read in more than one piece.
			expect(reached).toBeGreaterThan(0);
		},
		TIMEOUT,
	);
});

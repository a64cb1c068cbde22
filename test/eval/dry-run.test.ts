/**
 * `--dry-run`'s requests written against the one before them: a session's
 * first request under a set whole, each later one only its new messages and
 * changed fields, and every request read back exactly as it was, whatever
 * changed between two calls (fields added or gone, messages cut by a
 * compaction, a context that did not change, two sets side by side).
 */
import { describe, expect, it } from "vitest";
import type { PreparedCall } from "../../src/eval/contexts.js";
import { dryRequests } from "../../src/eval/dry-run.js";
import { rebuild } from "../support/dry-run.js";

const message = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
const body = (messages: unknown[], more: Record<string, unknown> = {}) => ({
	model: "m",
	max_tokens: 10,
	system: "sys",
	messages,
	...more,
});

/** Calls of one session, each with one request per body given (set a, then b). */
function calls(...bodies: Record<string, unknown>[][]): PreparedCall[] {
	return bodies.map((sides, index) => ({
		file: "s.jsonl",
		index,
		entryId: `e${index}`,
		recorded: { text: "", toolCalls: [] },
		requests: sides.map((b, side) => ({ set: side === 0 ? "a" : "b", body: b, inputTokens: 7 })),
	}));
}

/** The requests as they went in, in the order dryRequests gives them. */
const whole = (list: PreparedCall[]) =>
	list.flatMap((c) =>
		c.requests.map((r) => ({
			file: c.file,
			index: c.index,
			entryId: c.entryId,
			set: r.set,
			body: r.body,
		})),
	);

describe("--dry-run's requests", () => {
	it("gives a session's first request whole and a later one its new messages alone", () => {
		const [m1, m2, m3, m4] = ["one", "two", "three", "four"].map(message);
		const list = calls([body([m1])], [body([m1, m2, m3])], [body([m1, m2, m3, m4])]);
		const lines = [...dryRequests(list)];
		expect(lines[0]).toEqual({ ...whole(list)[0], inputTokens: 7 });
		expect(lines[1]).toMatchObject({ previous: 0, prefix: 1, body: { messages: [m2, m3] } });
		expect(lines[2]).toEqual({
			file: "s.jsonl",
			index: 2,
			entryId: "e2",
			set: "a",
			inputTokens: 7,
			previous: 1,
			prefix: 3,
			same: ["model", "max_tokens", "system"],
			body: { messages: [m4] },
		});
		expect(rebuild(lines)).toEqual(whole(list));
	});

	it("reads back fields that change, appear or go, a compaction's cut, and an unchanged context", () => {
		const [m1, m2, m3, summary] = ["one", "two", "three", "summary"].map(message);
		const list = calls(
			[body([m1, m2])],
			[body([m1, m2, m3], { tools: [{ name: "read" }], system: "changed" })],
			[body([summary, m3], { tools: [{ name: "read" }] })],
			[body([summary, m3], { tools: [{ name: "read" }] })],
		);
		const lines = [...dryRequests(list)];
		expect(lines[1]).toMatchObject({ prefix: 2, same: ["model", "max_tokens"] });
		expect(lines[1]?.body).toEqual({
			system: "changed",
			tools: [{ name: "read" }],
			messages: [m3],
		});
		expect(lines[2]).toMatchObject({ prefix: 0, body: { system: "sys", messages: [summary, m3] } });
		expect(lines[3]).toMatchObject({ prefix: 2, body: { messages: [] } });
		expect(lines[3]?.same).toEqual(["model", "max_tokens", "system", "tools"]);
		// A field the previous request had and this one lacks is in neither `same` nor `body`.
		const gone = calls([body([m1], { temperature: 1 })], [body([m1, m2])]);
		const [, second] = [...dryRequests(gone)];
		expect(second?.same).not.toContain("temperature");
		expect(second?.body).not.toHaveProperty("temperature");
		expect(rebuild([...dryRequests(gone)])).toEqual(whole(gone));
		expect(rebuild(lines)).toEqual(whole(list));
	});

	it("writes each set's requests against that set's previous one", () => {
		const [m1, m2] = ["one", "two"].map(message);
		const list = calls(
			[body([m1]), body([m1], { system: "b's" })],
			[body([m1, m2]), body([m1, m2], { system: "b's" })],
		);
		const lines = [...dryRequests(list)];
		expect(lines.map((l) => [l.set, l.previous])).toEqual([
			["a", undefined],
			["b", undefined],
			["a", 0],
			["b", 0],
		]);
		expect(lines[3]).toMatchObject({ prefix: 1, body: { messages: [m2] } });
		expect(lines[3]?.same).toContain("system");
		expect(rebuild(lines)).toEqual(whole(list));
	});
});

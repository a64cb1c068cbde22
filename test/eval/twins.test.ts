/**
 * The call loop (src/eval/run.ts) sends a request made twice in one run
 * once: a call both sides render alike gets one answer on both sides, so
 * sampling alone makes no flip, and the request is paid once.
 */
import { describe, expect, it } from "vitest";
import type { Answer } from "../../src/eval/client.js";
import { runJobs } from "../../src/eval/run.js";

describe("the call loop", () => {
	it("sends a request made twice once, and gives both its answer", async () => {
		let sent = 0;
		const answer = (n: number): Answer => ({
			text: `answer ${n}`,
			toolCalls: [],
			stopReason: "end_turn",
			usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } as Answer["usage"],
		});
		const jobs = ["a", "b", "a", "c", "a"].map((key) => ({ key, body: { key } }));
		const progress: number[] = [];
		const results = await runJobs(jobs, {
			send: async () => async () => answer(++sent),
			cache: undefined,
			concurrency: 2,
			signal: new AbortController().signal,
			progress: (done) => progress.push(done),
		});
		expect(sent).toBe(3);
		const texts = results.map((r) => r?.answer?.text);
		expect(texts[2]).toBe(texts[0]);
		expect(texts[4]).toBe(texts[0]);
		expect(new Set([texts[0], texts[1], texts[3]]).size).toBe(3);
		// The twins are not sent: answered as from the cache, so their cost is not counted again.
		expect(results.map((r) => r?.fromCache)).toEqual([false, false, true, false, true]);
		expect(progress).toEqual([1, 2, 3, 4, 5]);
	});
});

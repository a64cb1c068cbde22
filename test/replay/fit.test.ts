/** The fit against recorded usage: growths of consecutive calls, their correlation and median ratio. */
import { describe, expect, it } from "vitest";
import { fitOf, growths, recordedPrompt } from "../../src/replay/fit.js";

describe("recordedFit", () => {
	it("compares growths, not levels: a constant offset and a steady bias fit exactly", () => {
		const ours = [100, 180, 400, 450, 900, 1000];
		// The provider's prompt: its own system prompt (+5,000) and a tokenizer 1.25× ours.
		const points = ours.map((context) => ({ context, prompt: 5000 + 1.25 * context }));
		const fit = fitOf(growths(points));
		expect(fit).toEqual({ calls: 5, correlation: 1, ratio: 1.25 });
	});

	it("skips pairs a call without a recorded prompt breaks", () => {
		const points = [
			{ context: 10, prompt: 20 },
			{ context: 20, prompt: null },
			{ context: 30, prompt: 60 },
			{ context: 40, prompt: 80 },
		];
		expect(growths(points)).toEqual([[10, 20]]);
		expect(fitOf([])).toBeNull();
		expect(fitOf([[10, 20]])).toEqual({ calls: 1, correlation: null, ratio: 2 });
	});

	it("reads the recorded prompt as input + cacheRead + cacheWrite; all zero or none is no record", () => {
		expect(recordedPrompt({ input: 3, cacheRead: 400, cacheWrite: 50, output: 7 })).toBe(453);
		expect(recordedPrompt({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 })).toBeNull();
		expect(
			recordedPrompt({ input: null, cacheRead: null, cacheWrite: null, output: 3 }),
		).toBeNull();
		expect(recordedPrompt(null)).toBeNull();
	});
});

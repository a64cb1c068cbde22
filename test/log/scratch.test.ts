/**
 * `Scratch`: the buffer a thread's reads reuse. Given back, it serves the
 * next use (its pages are touched once); taken while in use, the second use
 * gets a buffer of its own, never the one being filled.
 */
import { describe, expect, it } from "vitest";
import { Scratch } from "../../src/log/read.js";

describe("Scratch", () => {
	it("reuses a buffer given back, and grows it when a use needs more", () => {
		const scratch = new Scratch();
		const first = scratch.take(100);
		scratch.give(first);
		const second = scratch.take(50);
		expect(second.buffer).toBe(first.buffer);
		expect(second.length).toBe(50);
		scratch.give(second);
		const bigger = scratch.take(1000);
		expect(bigger.buffer).not.toBe(first.buffer);
		expect(bigger.length).toBe(1000);
	});

	it("never hands out a buffer in use", () => {
		const scratch = new Scratch();
		const a = scratch.take(64);
		const b = scratch.take(64);
		expect(b.buffer).not.toBe(a.buffer);
		scratch.give(a);
		scratch.give(b);
		const c = scratch.take(64);
		const d = scratch.take(64);
		expect(c.buffer).not.toBe(d.buffer);
	});
});

/**
 * `BufferPool`: the buffers a thread's reads and writes reuse. Given back,
 * a buffer serves the next use (its pages are touched once); taken while in
 * use, the second use gets a buffer of its own, never the one being filled.
 */
import { describe, expect, it } from "vitest";
import { BufferPool } from "../../src/log/buffer-pool.js";

describe("BufferPool", () => {
	it("reuses a buffer given back, and grows it when a use needs more", () => {
		const pool = new BufferPool();
		const first = pool.take(100);
		pool.give(first);
		const second = pool.take(50);
		expect(second.buffer).toBe(first.buffer);
		expect(second.length).toBe(50);
		pool.give(second);
		const bigger = pool.take(1000);
		expect(bigger.buffer).not.toBe(first.buffer);
		expect(bigger.length).toBe(1000);
	});

	it("never hands out a buffer in use", () => {
		const pool = new BufferPool();
		const a = pool.take(64);
		const b = pool.take(64);
		expect(b.buffer).not.toBe(a.buffer);
		pool.give(a);
		pool.give(b);
		const c = pool.take(64);
		const d = pool.take(64);
		expect(c.buffer).not.toBe(d.buffer);
	});
});

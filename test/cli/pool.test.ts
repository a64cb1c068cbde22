/**
 * The corpus pool: results in input order whatever thread did each item,
 * progress told once per item, a failure in any thread reported, and as
 * many threads as the work keeps busy (never more than asked).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { type PoolTask, poolThreads, runPool, threadsFor } from "../../src/cli/pool.js";

const ROOT = join(import.meta.dirname, "../..");
const BUILT = join(ROOT, "dist/cli/pool.js");
const TASK_FILE = join(import.meta.dirname, "fixtures/pool-task.mjs");

interface Init {
	factor: number;
	ms: number;
}
type Scaled = { n: number; scaled: number };

async function task(): Promise<PoolTask<number, Scaled, Init>> {
	const { createTask } = (await import(pathToFileURL(TASK_FILE).href)) as {
		createTask: PoolTask<number, Scaled, Init>["create"];
	};
	return { module: pathToFileURL(TASK_FILE), create: createTask };
}

/** The built pool (its worker is compiled JavaScript), or this one when not built. */
async function pool(): Promise<typeof runPool> {
	if (!existsSync(BUILT)) return runPool;
	return ((await import(pathToFileURL(BUILT).href)) as { runPool: typeof runPool }).runPool;
}

describe("threadsFor", () => {
	it("starts a thread per share of work, at most the jobs asked, at least this one", () => {
		expect(threadsFor(0, 4)).toBe(1);
		expect(threadsFor(10, 4)).toBe(1);
		expect(threadsFor(64, 4)).toBe(2);
		expect(threadsFor(1000, 4)).toBe(4);
		expect(threadsFor(1000, 1)).toBe(1);
		expect(threadsFor(10, 4, 5)).toBe(2);
		expect(threadsFor(10, 4, 0)).toBe(4);
	});

	it("counts the work by its size when given one: many small files stay on one thread", () => {
		const MB = 1024 * 1024;
		const options = (total: number) => ({
			init: null,
			jobs: 4,
			size: { total, perThread: 64 * MB },
		});
		expect(poolThreads(1000, options(30 * MB))).toBe(1);
		expect(poolThreads(1000, options(130 * MB))).toBe(2);
		expect(poolThreads(1000, options(4000 * MB))).toBe(4);
		expect(poolThreads(3, options(4000 * MB))).toBe(3); // never more threads than items
		expect(poolThreads(1000, { init: null, jobs: 4 })).toBe(4);
	});
});

describe("runPool", () => {
	const items = Array.from({ length: 240 }, (_, i) => i);
	const expected = items.map((n) => ({ n, scaled: n * 3 }));

	for (const jobs of [1, 2, 3]) {
		it(`gives the results in input order and tells progress once per item (${jobs} job(s))`, async () => {
			const seen: number[] = [];
			const results = await (await pool())(await task(), items, {
				init: { factor: 3, ms: 1 },
				jobs,
				minItemsPerThread: 1,
				progress: (done, total) => {
					expect(total).toBe(items.length);
					seen.push(done);
				},
			});
			expect(results).toEqual(expected);
			expect(seen).toEqual(items.map((_, i) => i + 1));
		}, 30_000);
	}

	it("reports a failure, in whichever thread it happens", async () => {
		const failing = [...items.slice(0, 100), -1, ...items.slice(100)];
		const run = (await pool())(await task(), failing, {
			init: { factor: 3, ms: 1 },
			jobs: 2,
			minItemsPerThread: 1,
		});
		await expect(run).rejects.toThrow(/cannot scale -1/);
	}, 30_000);

	it("does an empty list at once", async () => {
		expect(await runPool(await task(), [], { init: { factor: 3, ms: 0 }, jobs: 4 })).toEqual([]);
	});
});

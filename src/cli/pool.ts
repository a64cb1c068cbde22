/**
 * Corpus work on every core: a list of independent items (sessions to
 * compare, to replay, to import) done by this thread and by worker threads,
 * results in input order.
 *
 * This thread works from the start, one item at a time, while the workers
 * start (a worker loads its modules and tables before it can help: on a
 * small corpus it would cost more than it saves). A worker that is ready is
 * fed batches, smaller as the work runs out, so all threads finish together;
 * one that is not ready when the work is done is stopped unused. Threads are
 * started only as many as the work can keep busy (`minItemsPerThread`, or
 * the work's size in bytes), so a small corpus runs here alone.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const WORKER = new URL("./pool-worker.js", import.meta.url);
/** How long this thread works between looks at the workers' messages. */
const SLICE_MS = 2;
const MAX_BATCH = 64;

/** The work on one item: a module workers load, and the same function here. */
export interface PoolTask<I, R, C> {
	/** The compiled module the workers import: it exports `createTask`, the function `create` is. */
	module: URL;
	/** Prepares the work from `init` (loads tables, compiles) and returns the function doing one item. */
	create: (init: C) => ((item: I) => R) | Promise<(item: I) => R>;
}

export interface PoolOptions<C> {
	/** What `create` is given, in every thread (sent to workers: structured-cloneable). */
	init: C;
	/** Most threads to use, this one included. */
	jobs: number;
	/** Told after each item: how many are done, of how many. */
	progress?: (done: number, total: number) => void;
	/** Fewest items a thread must get for it to be worth starting (default 32). */
	minItemsPerThread?: number;
	/**
	 * The work's size in another unit (bytes, say) and the least of it a
	 * thread must get to be worth starting: used instead of the item count.
	 */
	size?: { total: number; perThread: number };
}

/**
 * The pool task of `command`: workers load the command's bundle when it is
 * built (`dist/cli/<command>.cjs`, which exports `createTask` and starts
 * faster), else `module`, the task's own compiled module.
 */
export function commandTask<I, R, C>(
	command: string,
	module: URL,
	create: PoolTask<I, R, C>["create"],
): PoolTask<I, R, C> {
	const bundle = new URL(`./${command}.cjs`, import.meta.url);
	return { module: existsSync(fileURLToPath(bundle)) ? bundle : module, create };
}

/** Whether worker threads can run `module` here (both compiled modules exist). */
export function workersAvailable(module: URL): boolean {
	return existsSync(fileURLToPath(WORKER)) && existsSync(fileURLToPath(module));
}

/** How many threads `items` items keep busy, at most `jobs`. */
export function threadsFor(items: number, jobs: number, minItemsPerThread = 32): number {
	return Math.max(1, Math.min(jobs, Math.floor(items / Math.max(1, minItemsPerThread))));
}

/** The threads (this one included) a pool of `items` items starts under `options`. */
export function poolThreads(items: number, options: PoolOptions<unknown>): number {
	if (options.size === undefined) return threadsFor(items, options.jobs, options.minItemsPerThread);
	const { total, perThread } = options.size;
	return Math.max(1, Math.min(items, threadsFor(total, options.jobs, perThread)));
}

/** Does `task` on every item on up to `jobs` threads; the results in input order. */
export async function runPool<I, R, C>(
	task: PoolTask<I, R, C>,
	items: readonly I[],
	options: PoolOptions<C>,
): Promise<R[]> {
	const total = items.length;
	const results: R[] = new Array(total);
	const threads = poolThreads(total, options);
	const workerCount = threads > 1 && workersAvailable(task.module) ? threads - 1 : 0;
	let next = 0;
	let done = 0;
	const finished = (count: number) => {
		for (let k = 0; k < count; k++) options.progress?.(++done, total);
	};
	/** The next items to hand out: fewer as they run out, so no thread is left with a long tail. */
	const take = (): { start: number; items: I[] } | undefined => {
		const size = Math.max(1, Math.min(MAX_BATCH, Math.floor((total - next) / (threads * 4))));
		if (next >= total) return undefined;
		const start = next;
		next = Math.min(total, next + size);
		return { start, items: items.slice(start, next) };
	};
	const crews = Array.from({ length: workerCount }, () =>
		feed(task, options.init, take, results, finished),
	);
	try {
		const run = await task.create(options.init);
		let slice = performance.now();
		while (next < total) {
			const index = next++;
			results[index] = run(items[index] as I);
			finished(1);
			if (workerCount > 0 && performance.now() - slice > SLICE_MS) {
				await new Promise((resolve) => setImmediate(resolve));
				slice = performance.now();
			}
		}
		// A worker still starting (never given a batch) is not waited for.
		await Promise.all(crews.map((c) => (c.busy() ? c.done : undefined)));
	} finally {
		await Promise.all(crews.map((c) => c.stop()));
	}
	return results;
}

/** A worker fed batches from `take` until there are none; `done` settles when its last batch is in. */
function feed<I, R, C>(
	task: PoolTask<I, R, C>,
	init: C,
	take: () => { start: number; items: I[] } | undefined,
	results: R[],
	finished: (count: number) => void,
): { done: Promise<void>; busy: () => boolean; stop: () => Promise<number> } {
	const worker = new Worker(WORKER, { workerData: { module: task.module.href, init } });
	let busy = false;
	const done = new Promise<void>((resolve, reject) => {
		const send = () => {
			const batch = take();
			busy = batch !== undefined;
			if (batch === undefined) resolve();
			else worker.postMessage(batch);
		};
		worker.on("message", (m: { ready: true } | { start: number; results: R[] }) => {
			if ("start" in m) {
				for (let k = 0; k < m.results.length; k++) results[m.start + k] = m.results[k] as R;
				finished(m.results.length);
			}
			send();
		});
		worker.on("error", reject);
		worker.on("exit", (code) => {
			if (busy || code !== 0) reject(new Error(`a worker thread exited with code ${code}`));
			else resolve();
		});
	});
	done.catch(() => undefined); // observed by the caller only while the worker is busy
	const stop = () => {
		busy = false;
		return worker.terminate();
	};
	return { done, busy: () => busy, stop };
}

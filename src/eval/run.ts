/**
 * The call loop: each request answered from the cache or sent, at most
 * `concurrency` at a time. A request that fails (after the SDK's retries)
 * is that run's error and the loop goes on; a stop (the signal, on Ctrl-C)
 * sends nothing more, abandons what is in flight, and returns what was
 * answered (already in the cache). Progress is reported after each request.
 * A request made twice in one run (the same key: a call whose context both
 * sides render alike) is sent once, its answer given to both: two answers
 * to one request would differ by sampling alone, a flip the edit did not make.
 */
import type { CachedAnswer, ResponseCache } from "./cache.js";
import { type Answer, EvalRequestError, type Send } from "./client.js";
import type { RequestBody } from "./settings.js";

/** One request to make. */
export interface Job {
	key: string;
	body: RequestBody;
}

/** What became of a request; undefined in the results when the run stopped before it. */
export interface JobResult {
	answer?: Answer;
	error?: string;
	latencyMs: number;
	fromCache: boolean;
}

/** How to run the loop. */
export interface LoopOptions {
	/** Sends a request; needed only when some request is not in the cache. */
	send: () => Promise<Send>;
	cache: ResponseCache | undefined;
	concurrency: number;
	signal: AbortSignal;
	/** After each request: how many are done, and the result. */
	progress?: (done: number, result: JobResult) => void;
	/** The clock, for latencies. */
	now?: () => number;
}

/** Runs `jobs`; the results are index for index with them. */
export async function runJobs(
	jobs: readonly Job[],
	options: LoopOptions,
): Promise<(JobResult | undefined)[]> {
	const results: (JobResult | undefined)[] = new Array(jobs.length).fill(undefined);
	const now = options.now ?? (() => performance.now());
	// Each key's first job is run; the others (its twins) get its result.
	const firstOf = new Map<string, number>();
	const twins = new Map<number, number[]>();
	const order: number[] = [];
	jobs.forEach((job, i) => {
		const first = firstOf.get(job.key);
		if (first === undefined) {
			firstOf.set(job.key, i);
			order.push(i);
		} else twins.set(first, [...(twins.get(first) ?? []), i]);
	});
	let next = 0;
	let done = 0;
	let sender: Promise<Send> | undefined;
	const finish = (i: number, result: JobResult) => {
		results[i] = result;
		options.progress?.(++done, result);
		for (const twin of twins.get(i) ?? []) {
			const shared = { ...result, fromCache: result.error === undefined ? true : result.fromCache };
			results[twin] = shared;
			options.progress?.(++done, shared);
		}
	};
	const worker = async () => {
		while (!options.signal.aborted && next < order.length) {
			const i = order[next++] as number;
			const job = jobs[i] as Job;
			const kept = options.cache?.get(job.key);
			if (kept !== undefined) {
				finish(i, { answer: kept.answer, latencyMs: kept.latencyMs, fromCache: true });
				continue;
			}
			sender ??= options.send();
			const send = await sender;
			if (options.signal.aborted) break;
			const start = now();
			try {
				const answer = await send(job.body, options.signal);
				const latencyMs = Math.round(now() - start);
				const value: CachedAnswer = { answer, latencyMs };
				options.cache?.put(job.key, value);
				finish(i, { answer, latencyMs, fromCache: false });
			} catch (error) {
				if (!(error instanceof EvalRequestError)) throw error;
				if (error.aborted) break;
				finish(i, { error: error.message, latencyMs: Math.round(now() - start), fromCache: false });
			}
		}
	};
	const workers = Array.from(
		{ length: Math.max(1, Math.min(options.concurrency, order.length)) },
		worker,
	);
	await Promise.all(workers);
	return results;
}

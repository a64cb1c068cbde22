/**
 * Comparing many sessions on every core: a pool of worker threads, each
 * handed the next file as soon as it reports the last one. Results come
 * back in file order. Used when the compiled worker exists (it is part of
 * the built package); otherwise, and for one job, the work runs here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { Comparer, type SessionDiff } from "../measure/compare.js";
import { loadTokenizerSync } from "../text/tokenizer.js";
import type { WorkerInit } from "./diff-worker.js";

const WORKER = fileURLToPath(new URL("./diff-worker.js", import.meta.url));

/** Whether worker threads can run here (the compiled worker module exists). */
export function workersAvailable(): boolean {
	return existsSync(WORKER);
}

/** Compares every file, on `jobs` threads; `progress` is told each time one is done. */
export async function compareAll(
	files: readonly string[],
	init: WorkerInit,
	jobs: number,
	progress: (done: number) => void = () => {},
): Promise<SessionDiff[]> {
	const results: SessionDiff[] = new Array(files.length);
	if (jobs <= 1 || files.length < 2 || !workersAvailable()) {
		const comparer = new Comparer(init, loadTokenizerSync(init.tokenizer), {
			strict: init.strict,
		});
		files.forEach((file, i) => {
			results[i] = comparer.compare(file);
			progress(i + 1);
		});
		return results;
	}
	let next = 0;
	let done = 0;
	const workers = Array.from(
		{ length: Math.min(jobs, files.length) },
		() => new Worker(WORKER, { workerData: init }),
	);
	try {
		await Promise.all(
			workers.map(
				(worker) =>
					new Promise<void>((resolve, reject) => {
						const send = () => {
							if (next === files.length) return resolve();
							const index = next++;
							worker.postMessage({ index, file: files[index] });
						};
						worker.on("message", (m: { index: number; result: SessionDiff }) => {
							results[m.index] = m.result;
							progress(++done);
							send();
						});
						worker.on("error", reject);
						worker.on("exit", (code) => {
							if (code !== 0) reject(new Error(`a diff worker exited with code ${code}`));
						});
						send();
					}),
			),
		);
	} finally {
		await Promise.all(workers.map((w) => w.terminate()));
	}
	return results;
}

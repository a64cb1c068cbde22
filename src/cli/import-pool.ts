/**
 * Importing many files on every core: a pool of worker threads, each handed
 * the next file as soon as it reports the last one. Outcomes come back in
 * file order. Without the compiled worker, or for one job, the work runs here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ImportJob, type ImportOutcome, runImportJob } from "./import-job.js";

const WORKER = fileURLToPath(new URL("./import-worker.js", import.meta.url));
/** The most files handed to a worker at once. */
const MAX_BATCH = 32;

/** Runs every job on `threads` threads; `progress` is told each time one is done. */
export async function importAll(
	jobs: readonly ImportJob[],
	threads: number,
	progress: (done: number, outcome: ImportOutcome) => void = () => {},
): Promise<ImportOutcome[]> {
	const outcomes: ImportOutcome[] = new Array(jobs.length);
	if (threads <= 1 || jobs.length < 2 || !existsSync(WORKER)) {
		jobs.forEach((job, i) => {
			outcomes[i] = runImportJob(job);
			progress(i + 1, outcomes[i] as ImportOutcome);
		});
		return outcomes;
	}
	let next = 0;
	let done = 0;
	const workers = Array.from({ length: Math.min(threads, jobs.length) }, () => new Worker(WORKER));
	try {
		await Promise.all(
			workers.map(
				(worker) =>
					new Promise<void>((resolve, reject) => {
						const send = () => {
							if (next === jobs.length) return resolve();
							// Batches: a small file takes less than a thread's wake-up on a busy machine.
							const size = Math.max(
								1,
								Math.min(MAX_BATCH, Math.floor((jobs.length - next) / (workers.length * 4))),
							);
							const start = next;
							next += size;
							worker.postMessage({ start, jobs: jobs.slice(start, start + size) });
						};
						worker.on("message", (m: { start: number; outcomes: ImportOutcome[] }) => {
							m.outcomes.forEach((outcome, k) => {
								outcomes[m.start + k] = outcome;
								progress(++done, outcome);
							});
							send();
						});
						worker.on("error", reject);
						worker.on("exit", (code) => {
							if (code !== 0) reject(new Error(`an import worker exited with code ${code}`));
						});
						send();
					}),
			),
		);
	} finally {
		await Promise.all(workers.map((w) => w.terminate()));
	}
	return outcomes;
}

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
							const index = next++;
							worker.postMessage({ index, job: jobs[index] });
						};
						worker.on("message", (m: { index: number; outcome: ImportOutcome }) => {
							outcomes[m.index] = m.outcome;
							progress(++done, m.outcome);
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

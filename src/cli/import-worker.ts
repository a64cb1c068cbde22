/** An `import` worker thread: runs the batches of jobs it is sent, one message per batch each way. */
import { parentPort } from "node:worker_threads";
import { type ImportJob, runImportJob } from "./import-job.js";

parentPort?.on("message", (batch: { start: number; jobs: ImportJob[] }) => {
	parentPort?.postMessage({ start: batch.start, outcomes: batch.jobs.map(runImportJob) });
});

/** An `import` worker thread: runs the jobs it is sent, one message per file each way. */
import { parentPort } from "node:worker_threads";
import { type ImportJob, runImportJob } from "./import-job.js";

parentPort?.on("message", (job: { index: number; job: ImportJob }) => {
	parentPort?.postMessage({ index: job.index, outcome: runImportJob(job.job) });
});

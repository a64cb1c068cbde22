/**
 * A `diff` worker thread: compares the sessions it is sent, one message per
 * file each way, so the main thread can hand out work as workers free up.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Comparer, type Side } from "../measure/compare.js";
import { loadTokenizerSync, type TokenizerName } from "../text/tokenizer.js";

export interface WorkerInit {
	from: Side;
	to: Side;
	tokenizer: TokenizerName;
	strict: boolean;
}

const init = workerData as WorkerInit;
const comparer = new Comparer(init, loadTokenizerSync(init.tokenizer), { strict: init.strict });
parentPort?.on("message", (job: { index: number; file: string }) => {
	parentPort?.postMessage({ index: job.index, result: comparer.compare(job.file) });
});

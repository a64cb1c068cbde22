/**
 * Comparing many sessions on every core, through the corpus pool
 * (./pool.ts): this thread and as many workers as the corpus keeps busy,
 * results in file order.
 */
import type { SessionDiff } from "../measure/compare.js";
import { createTask, type WorkerInit } from "./diff-worker.js";
import { commandTask, runPool } from "./pool.js";

const TASK = commandTask("diff", new URL("./diff-worker.js", import.meta.url), createTask);

/** Compares every file, on up to `jobs` threads; `progress` is told each time one is done. */
export function compareAll(
	files: readonly string[],
	init: WorkerInit,
	jobs: number,
	progress: (done: number) => void = () => {},
): Promise<SessionDiff[]> {
	return runPool(TASK, files, { init, jobs, progress: (done) => progress(done) });
}

/**
 * Comparing many sessions on every core, through the corpus pool
 * (./pool.ts): this thread and as many workers as the corpus keeps busy,
 * results in file order.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SessionDiff } from "../measure/compare.js";
import { createTask, type WorkerInit } from "./diff-worker.js";
import { runPool } from "./pool.js";

/** The command's bundle when built (it exports the task, and starts faster), else the task's own module. */
const BUNDLE = new URL("./diff.cjs", import.meta.url);
const MODULE = existsSync(fileURLToPath(BUNDLE))
	? BUNDLE
	: new URL("./diff-worker.js", import.meta.url);
const TASK = { module: MODULE, create: createTask };

/** Compares every file, on up to `jobs` threads; `progress` is told each time one is done. */
export function compareAll(
	files: readonly string[],
	init: WorkerInit,
	jobs: number,
	progress: (done: number) => void = () => {},
): Promise<SessionDiff[]> {
	return runPool(TASK, files, { init, jobs, progress: (done) => progress(done) });
}

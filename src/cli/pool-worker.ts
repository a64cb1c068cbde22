/**
 * A worker thread of the corpus pool (./pool.ts): loads the task module it
 * is given, prepares the task once, says it is ready, then does each batch
 * it is sent and sends the results back. A command bundle (`.cjs`) is
 * loaded as the command line loads it, with V8's code cache, which spares
 * most of a worker's start.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { codeCacheOptions, useCodeCache } from "./code-cache.js";

type TaskModule = {
	createTask: (init: unknown) => ((item: unknown) => unknown) | Promise<(item: unknown) => unknown>;
};

const { module, init } = workerData as { module: string; init: unknown };
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
let task: TaskModule;
if (module.endsWith(".cjs")) {
	useCodeCache(codeCacheOptions(here("./"), here("../../")));
	task = createRequire(import.meta.url)(fileURLToPath(module)) as TaskModule;
} else {
	task = (await import(module)) as TaskModule;
}
const run = await task.createTask(init);
parentPort?.on("message", (batch: { start: number; items: unknown[] }) => {
	parentPort?.postMessage({ start: batch.start, results: batch.items.map(run) });
});
parentPort?.postMessage({ ready: true });

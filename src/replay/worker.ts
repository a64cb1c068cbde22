/**
 * A `replay` worker thread: replays the sessions it is sent, one message per
 * file each way, so the main thread can hand out work as workers free up.
 * The template compiler is made ready first (a set without a fresh
 * precompiled module is compiled); the port holds the jobs until then.
 */
import { parentPort, workerData } from "node:worker_threads";
import { TemplateRegistry } from "../templates/registry.js";
import { type ReplayInit, replayerOf } from "./pool.js";

const init = workerData as ReplayInit;
await new TemplateRegistry(init.side.templates).ready();
const replayer = replayerOf(init);
parentPort?.on("message", (job: { index: number; file: string }) => {
	parentPort?.postMessage({ index: job.index, result: replayer.replay(job.file) });
});

/**
 * A `replay` worker thread: replays the sessions it is sent, one message per
 * file each way, so the main thread can hand out work as workers free up.
 * The replayer's registries carry the template compiler, so a set without
 * a fresh precompiled module is compiled where it is first needed.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type ReplayInit, replayerOf } from "./pool.js";

const init = workerData as ReplayInit;
const replayer = replayerOf(init);
parentPort?.on("message", (job: { index: number; file: string }) => {
	parentPort?.postMessage({ index: job.index, result: replayer.replay(job.file) });
});

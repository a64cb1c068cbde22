/**
 * Replaying many sessions on every core: a pool of worker threads, each
 * handed the next file as soon as it reports the last one, results in file
 * order (the approach of `diff`'s pool). Used when the compiled worker
 * exists (it is part of the built package); otherwise, and for one job, the
 * work runs here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { loadTokenizerSync, type TokenizerName } from "../text/tokenizer.js";
import type { PriceTable } from "./prices.js";
import { Replayer, type ReplaySide, type SessionReplay } from "./replay.js";

/** What a worker needs to replay sessions as the main thread would. */
export interface ReplayInit {
	side: ReplaySide;
	vs?: ReplaySide;
	tokenizer: TokenizerName;
	prices: PriceTable;
	strict: boolean;
}

// From the bundled command (dist/cli/replay.cjs) and from dist/replay/pool.js alike.
const WORKER = fileURLToPath(new URL("../replay/worker.js", import.meta.url));

/** A replayer from its init. */
export function replayerOf(init: ReplayInit): Replayer {
	return new Replayer(
		init.vs === undefined ? { side: init.side } : { side: init.side, vs: init.vs },
		loadTokenizerSync(init.tokenizer),
		init.prices,
		{ strict: init.strict },
	);
}

/** Replays every file on `jobs` threads; `progress` is told each time one is done. */
export async function replayAll(
	files: readonly string[],
	init: ReplayInit,
	jobs: number,
	progress: (done: number) => void = () => {},
): Promise<SessionReplay[]> {
	const results: SessionReplay[] = new Array(files.length);
	if (jobs <= 1 || files.length < 2 || !existsSync(WORKER)) {
		const replayer = replayerOf(init);
		files.forEach((file, i) => {
			results[i] = replayer.replay(file);
			progress(i + 1);
		});
		return results;
	}
	let next = 0;
	let done = 0;
	const workers = Array.from(
		{ length: Math.min(jobs, files.length) },
		() => new Worker(WORKER, { workerData: init }),
	);
	try {
		await Promise.all(
			workers.map(
				(worker) =>
					new Promise<void>((resolve, reject) => {
						const send = () => {
							if (next === files.length) return resolve();
							const index = next++;
							worker.postMessage({ index, file: files[index] });
						};
						worker.on("message", (m: { index: number; result: SessionReplay }) => {
							results[m.index] = m.result;
							progress(++done);
							send();
						});
						worker.on("error", reject);
						worker.on("exit", (code) => {
							if (code !== 0) reject(new Error(`a replay worker exited with code ${code}`));
						});
						send();
					}),
			),
		);
	} finally {
		await Promise.all(workers.map((w) => w.terminate()));
	}
	return results;
}

/**
 * The sidecar on a pair of streams: one request per line in, one reply per
 * line out, in order. Requests are handled one at a time; while the output
 * is not drained, no more input is read, so a client that pipelines
 * thousands of requests without reading costs memory bounded by the pipes,
 * not by the number of requests.
 */
import type { Readable, Writable } from "node:stream";
import { boundedLines } from "./lines.js";
import { Sidecar, type SidecarOptions } from "./server.js";

/** The longest request line read (longer ones get an error reply, unread). */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export interface StdioOptions extends SidecarOptions {
	maxRequestBytes?: number;
}

/** Serves requests from `input` until it ends or a `shutdown` request. */
export async function serveStreams(
	input: Readable,
	output: Writable,
	options: StdioOptions,
	sidecar: Sidecar = new Sidecar(options),
): Promise<void> {
	const lines = boundedLines(input, options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
	for await (const line of lines) {
		const reply = await sidecar.handle(line);
		if (reply !== undefined && !output.write(`${reply}\n`)) await drained(output);
		if (sidecar.stopped) break;
	}
}

/**
 * Waits for `output` to drain, or to close (a client gone is the end, not an
 * error); an error on it is thrown. Whichever comes first removes the other
 * listeners, so a long run of large replies leaves none behind.
 */
function drained(output: Writable): Promise<void> {
	if (output.destroyed) return Promise.resolve();
	return new Promise((resolve, reject) => {
		const settle = (error?: unknown) => {
			output.off("drain", onDrain);
			output.off("close", onDrain);
			output.off("error", settle);
			if (error === undefined) resolve();
			else reject(error);
		};
		const onDrain = () => settle();
		output.on("drain", onDrain);
		output.on("close", onDrain);
		output.on("error", settle);
	});
}

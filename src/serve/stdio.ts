/**
 * The sidecar on a pair of streams: one request per line in, one reply per
 * line out, in order. Requests are handled one at a time; while the output
 * is not drained, no more input is read, so a client that pipelines
 * thousands of requests without reading costs memory bounded by the pipes,
 * not by the number of requests.
 */
import type { Readable, Writable } from "node:stream";
import { ioError } from "../log/read.js";
import { boundedLines, DEFAULT_MAX_REQUEST_BYTES } from "./lines.js";
import { Sidecar, type SidecarOptions } from "./server.js";

export interface StdioOptions extends SidecarOptions {
	maxRequestBytes?: number;
}

/**
 * Serves requests from `input` until it ends, a `shutdown` request, or the
 * client stops reading: a client gone (EPIPE) ends the service quietly; any
 * other failure to write a reply (a full disk) is a located `io` error.
 */
export async function serveStreams(
	input: Readable,
	output: Writable,
	options: StdioOptions,
	sidecar: Sidecar = new Sidecar(options),
): Promise<void> {
	let failure: NodeJS.ErrnoException | undefined;
	const onError = (error: NodeJS.ErrnoException) => {
		failure ??= error;
		input.destroy(); // nothing more is read: no reply could be written
	};
	output.on("error", onError);
	try {
		const lines = boundedLines(input, options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
		for await (const line of lines) {
			const reply = await sidecar.handle(line);
			if (reply !== undefined && !output.write(`${reply}\n`)) await drained(output);
			if (sidecar.stopped || failure !== undefined) break;
		}
	} catch (error) {
		if (failure === undefined) throw error; // else: the input was ended because the output failed
	} finally {
		output.off("error", onError);
	}
	if (failure !== undefined && !CLIENT_GONE.has(failure.code ?? "")) {
		throw ioError("<stdout>", failure, "cannot write the reply");
	}
}

/** The errors of a client that closed its end: the end of the service, not a failure. */
const CLIENT_GONE = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_DESTROYED"]);

/**
 * Waits for `output` to drain, to close (a client gone is the end, not an
 * error) or to fail. Whichever comes first removes the other listeners, so a
 * long run of large replies leaves none behind.
 */
function drained(output: Writable): Promise<void> {
	if (output.destroyed) return Promise.resolve();
	return new Promise((resolve) => {
		// An error is the caller's to report (its own listener records it): here it ends the wait.
		const settle = () => {
			output.off("drain", onDrain);
			output.off("close", onDrain);
			output.off("error", settle);
			resolve();
		};
		const onDrain = () => settle();
		output.on("drain", onDrain);
		output.on("close", onDrain);
		output.on("error", settle);
	});
}

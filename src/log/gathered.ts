/**
 * A foreign file's bytes, gathered chunk by chunk into one buffer while the
 * log reader reads it (a file whose first line is not our header is
 * converted whole). The buffer is reused from one file to the next: a fresh
 * buffer's every page is a fault, and a fault is dear on some machines.
 */
import { BufferPool } from "./buffer-pool.js";

/** The buffer a foreign file's bytes are gathered in, reused from one file to the next. */
const GATHER = new BufferPool();

/** Bytes gathered chunk by chunk into one buffer (sized by a hint, grown as needed). */
export class Gathered {
	private buffer: Buffer;
	private length = 0;

	constructor(hint: number) {
		this.buffer = GATHER.take(Math.max(hint, 64 * 1024));
	}

	add(chunk: Uint8Array): void {
		if (this.length + chunk.length > this.buffer.length) {
			const grown = Buffer.allocUnsafe(
				Math.max(this.buffer.length * 2, this.length + chunk.length),
			);
			this.buffer.copy(grown, 0, 0, this.length);
			GATHER.give(this.buffer);
			this.buffer = grown;
		}
		this.buffer.set(chunk, this.length);
		this.length += chunk.length;
	}

	bytes(): Buffer {
		return this.buffer.subarray(0, this.length);
	}

	/** The bytes are read: the buffer may serve the next file. */
	release(): void {
		GATHER.give(this.buffer);
	}
}

/**
 * A foreign file's bytes, gathered chunk by chunk into one buffer while the
 * log reader reads it (a file whose first line is not our header is
 * converted whole). The buffer is reused from one file to the next: a fresh
 * buffer's every page is a fault, and a fault is dear on some machines. A
 * file read whole in one chunk is not copied at all: the read's own buffer
 * is handed over ({@link Gathered.adopt}) and given back when the bytes are read.
 */
import { BufferPool } from "./buffer-pool.js";

/** The buffer a foreign file's bytes are gathered in, reused from one file to the next. */
const GATHER = new BufferPool();

/** Bytes gathered chunk by chunk into one buffer (sized by a hint, grown as needed). */
export class Gathered {
	private length = 0;

	private constructor(
		private buffer: Buffer,
		private giveBack: (buffer: Buffer) => void,
	) {}

	/** Room for `hint` bytes, from this module's pool. */
	static take(hint: number): Gathered {
		return new Gathered(GATHER.take(Math.max(hint, 64 * 1024)), (b) => GATHER.give(b));
	}

	/** The bytes of a whole file, as they are: `bytes` stays this one's until `giveBack` has it back. */
	static adopt(bytes: Buffer, giveBack: (buffer: Buffer) => void): Gathered {
		const gathered = new Gathered(bytes, giveBack);
		gathered.length = bytes.length;
		return gathered;
	}

	add(chunk: Uint8Array): void {
		if (this.length + chunk.length > this.buffer.length) {
			const grown = Buffer.allocUnsafe(
				Math.max(this.buffer.length * 2, this.length + chunk.length),
			);
			this.buffer.copy(grown, 0, 0, this.length);
			this.giveBack(this.buffer);
			this.buffer = grown;
			this.giveBack = () => undefined;
		}
		this.buffer.set(chunk, this.length);
		this.length += chunk.length;
	}

	bytes(): Buffer {
		return this.buffer.subarray(0, this.length);
	}

	/** The bytes are read: the buffer may serve the next file. */
	release(): void {
		this.giveBack(this.buffer);
	}
}

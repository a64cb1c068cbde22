/**
 * Buffers reused from one use to the next: the chunks a log is read in, a
 * foreign file's gathered bytes, an import's source and the buffers its log
 * is written from. A fresh buffer's every page is a fault when first
 * touched, and a fault is dear on some machines (11 µs a page measured on
 * one); a buffer given back serves the next use, and a use that starts
 * while another holds a buffer gets one of its own.
 */
export class BufferPool {
	private free: Buffer[] = [];
	private lent: Buffer[] = [];

	/** A buffer of exactly `size` bytes, over a free one large enough when there is one. */
	readonly take = (size: number): Buffer => {
		const at = this.free.findIndex((b) => b.length >= size);
		const buffer = at < 0 ? Buffer.allocUnsafeSlow(size) : (this.free.splice(at, 1)[0] as Buffer);
		this.lent.push(buffer);
		return buffer.subarray(0, size);
	};

	/** Gives back the buffer {@link take} gave as `taken`. */
	give(taken: Uint8Array): void {
		const at = this.lent.findIndex((b) => b.buffer === taken.buffer);
		if (at >= 0) this.free.push(...this.lent.splice(at, 1));
	}

	/** Gives back every buffer lent: what was written from them is written. */
	recycle(): void {
		this.free.push(...this.lent);
		this.lent = [];
	}
}

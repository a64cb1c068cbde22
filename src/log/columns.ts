/** Numeric columns indexed by entry, grown by half again each time. */
export class Column<A extends Uint8Array | Int32Array | Float64Array> {
	constructor(public data: A) {}

	grow(size: number): void {
		if (size <= this.data.length) return;
		let length = Math.ceil(this.data.length * 1.5);
		while (length < size) length = Math.ceil(length * 1.5);
		const next = new (this.data.constructor as new (n: number) => A)(length);
		next.set(this.data);
		this.data = next;
	}
}

export const ints = () => new Column(new Int32Array(1024));
export const bytes = () => new Column(new Uint8Array(1024));
export const doubles = () => new Column(new Float64Array(1024));

/**
 * JSON text of any value, without recursion: a message nested 100,000 deep
 * prints like any other, and an output longer than the longest string the
 * runtime holds is written in chunks (to a writer), so its size is bounded by
 * the output, not by that limit. The text equals `JSON.stringify(value, null,
 * indent)` for every JSON value nested less than `indentDepth` deep (64);
 * deeper, the text goes on compact, since indenting every level of a value
 * nested 100,000 deep would take billions of spaces. A cycle prints as
 * `"[Circular]"`, and a value past `maxDepth` as {@link DEPTH_CUT}.
 *
 * Most values are neither deep nor cyclic: below the top two levels, the
 * items of an array are written by `JSON.stringify` many at a time (native,
 * many times faster than walking them here; each call's text between 64 KiB
 * and 1 MiB as far as the items allow), and any other container is tried
 * with it whole. When that fails (a cycle, a BigInt, a stack overflow, a
 * text longer than a string can be) or would differ (a value nested past
 * `indentDepth`), the items go one at a time, and a container `JSON.stringify`
 * refuses is walked here, and then so are all its descendants.
 */

export interface JsonWriteOptions {
	/** Spaces per level; 0 for compact JSON (default 0). */
	indent?: number;
	/** Levels indented; deeper ones are written compact (default 64). */
	indentDepth?: number;
	/** Values nested deeper than this are cut (default: no limit). */
	maxDepth?: number;
	/** Receives the text, a chunk at a time. */
	write(chunk: string): void;
}

/** The cut marker for a value nested deeper than `maxDepth`. */
export const DEPTH_CUT = "[… nested too deeply: cut]";

type Frame = {
	/** Entries still to write: [key or undefined, value]. */
	items: [string | undefined, unknown][];
	next: number;
	close: string;
	value: object;
	/** Entries written so far (a skipped object member writes nothing). */
	written: number;
	/** Written here item by item, and so are its descendants: `JSON.stringify` failed on it. */
	walked: boolean;
};

const CHUNK = 1 << 16;
/** Containers this deep or deeper are first tried with `JSON.stringify`. */
const NATIVE_LEVEL = 2;

/** Writes `value` as JSON text to `options.write`. */
export function writeJson(value: unknown, options: JsonWriteOptions): void {
	const indent = options.indent ?? 0;
	const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
	let buffer = "";
	const out = (text: string) => {
		if (text.length >= CHUNK) {
			// A run's text goes on as it is, not copied into the buffer.
			if (buffer !== "") options.write(buffer);
			options.write(text);
			buffer = "";
			return;
		}
		buffer += text;
		if (buffer.length >= CHUNK) {
			options.write(buffer);
			buffer = "";
		}
	};
	const stack: Frame[] = [];
	const onStack = new Set<object>();
	const indentDepth = options.indentDepth ?? 64;
	/** Whether the items of a container `level` deep are written on lines of their own. */
	const pretty = (level: number) => indent > 0 && level <= indentDepth;
	const newline = (level: number, depth: number) =>
		pretty(level) ? `\n${" ".repeat(indent * depth)}` : "";

	/** Writes a scalar, or opens a container (pushing its frame). */
	const start = (raw: unknown, key: string | undefined, inArray: boolean): boolean => {
		const v = toJsonValue(raw, key);
		if (v === undefined || typeof v === "function" || typeof v === "symbol") {
			if (!inArray) return false;
			out("null");
			return true;
		}
		if (v === null || typeof v !== "object") {
			out(scalar(v));
			return true;
		}
		if (onStack.has(v)) {
			out('"[Circular]"');
			return true;
		}
		if (stack.length >= maxDepth) {
			out(JSON.stringify(DEPTH_CUT));
			return true;
		}
		const level = stack.length;
		if (level >= NATIVE_LEVEL && !(stack[level - 1] as Frame).walked) {
			const text = native(v, level);
			if (text !== undefined) {
				out(text);
				return true;
			}
		}
		const isArray = Array.isArray(v);
		const items: Frame["items"] = isArray
			? Array.from(v as unknown[], (x): [undefined, unknown] => [undefined, x])
			: Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]]);
		out(isArray ? "[" : "{");
		stack.push({
			items,
			next: 0,
			close: isArray ? "]" : "}",
			value: v,
			written: 0,
			walked: level >= NATIVE_LEVEL,
		});
		onStack.add(v);
		return true;
	};

	/**
	 * The container `v`, `level` deep, as `JSON.stringify` writes it, if that
	 * is what the walk would write too; else undefined. Nothing limits the
	 * depth here (`maxDepth` is infinite), and JSON text holds no raw line
	 * break but between items, so indentation shows how deep `v` goes.
	 */
	const native = (v: object, level: number): string | undefined => {
		if (typeof (v as { toJSON?: unknown }).toJSON === "function") return undefined;
		return nativeIn(v, level, false);
	};

	/**
	 * `v` as `JSON.stringify` writes it `level` deep, or, with `run`, the items
	 * of the array `v` written there one after the other, with the separators
	 * the walk puts between them (as a container's items `level` deep).
	 */
	const nativeIn = (v: object, level: number, run: boolean): string | undefined => {
		if (maxDepth !== Number.POSITIVE_INFINITY) return undefined;
		const compact = !pretty(level + 1);
		// Pretty, `v` goes in as deep as it is, inside `level` one-item arrays (a
		// run is itself the innermost): its lines come out indented as they are
		// here, and the arrays are cut off.
		let wrapped: unknown = v;
		for (let d = run ? 1 : 0; d < level && !compact; d++) wrapped = [wrapped];
		let text: string;
		try {
			text = compact ? JSON.stringify(v) : JSON.stringify(wrapped, null, indent);
		} catch {
			return undefined; // a cycle, a BigInt, too deep for the stack, too long for a string
		}
		if (compact) return run ? text.slice(1, -1) : text;
		// Items of a container d deep are indented d + 1 levels: none past indentDepth.
		if (text.includes(`\n${" ".repeat(indent * indentDepth + 1)}`)) return undefined;
		let head = 0; // "[\n" and the next level's indentation, per array
		let tail = 0; // "\n", the indentation and "]", per array
		for (let d = 0; d < level; d++) {
			head += 2 + indent * (d + 1);
			tail += 2 + indent * d;
		}
		return text.slice(head, text.length - tail);
	};

	/** Items of an array written per `JSON.stringify` call: doubled or halved towards chunks of 64 KiB to 1 MiB. */
	let runLength = 8;
	/**
	 * Writes the next items of the array `frame` in one `JSON.stringify` call,
	 * as the walk would write them one by one; false when that cannot be.
	 */
	const writeRun = (frame: Frame): boolean => {
		const level = stack.length;
		if (frame.close !== "]" || frame.walked || level < NATIVE_LEVEL) return false;
		if (pretty(level) !== pretty(level + 1)) return false; // items on lines, their insides not
		const count = Math.min(runLength, frame.items.length - frame.next);
		if (count < 2) return false;
		const values: unknown[] = new Array(count);
		for (let k = 0; k < count; k++) {
			const item = (frame.items[frame.next + k] as [undefined, unknown])[1];
			// toJSON would be given the index in the run, not in the array: item by item.
			if (typeof (item as { toJSON?: unknown } | null)?.toJSON === "function") return false;
			values[k] = item;
		}
		const text = nativeIn(values, level, true);
		if (text === undefined) return false;
		out(`${frame.written === 0 ? "" : ","}${newline(level, level)}${text}`);
		frame.next += count;
		frame.written += count;
		if (text.length < 4 * CHUNK) runLength = Math.min(runLength * 2, 1 << 14);
		else if (text.length > 16 * CHUNK) runLength = Math.max(2, runLength >> 1);
		return true;
	};

	start(value, "", true);
	while (stack.length > 0) {
		const frame = stack[stack.length - 1] as Frame;
		if (frame.next < frame.items.length && writeRun(frame)) continue;
		if (frame.next === frame.items.length) {
			stack.pop();
			onStack.delete(frame.value);
			out(
				frame.written === 0
					? frame.close
					: `${newline(stack.length + 1, stack.length)}${frame.close}`,
			);
			continue;
		}
		const [key, item] = frame.items[frame.next++] as [string | undefined, unknown];
		const isArray = key === undefined;
		if (!isArray) {
			// A member whose value JSON skips writes nothing at all.
			const v = toJsonValue(item, key);
			if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
		}
		out(`${frame.written === 0 ? "" : ","}${newline(stack.length, stack.length)}`);
		if (!isArray) out(`${JSON.stringify(key)}${pretty(stack.length) ? ": " : ":"}`);
		frame.written++;
		start(item, isArray ? String(frame.next - 1) : key, isArray);
	}
	if (buffer !== "") options.write(buffer);
}

/**
 * `value` as one JSON string (for values known to be small). Compact text
 * with no depth limit is `JSON.stringify`'s, tried first: it is the same
 * text, made natively; only a value it refuses (a cycle, a BigInt, nesting
 * past the stack) is walked.
 */
export function jsonText(value: unknown, options: Omit<JsonWriteOptions, "write"> = {}): string {
	if (!options.indent && options.maxDepth === undefined) {
		try {
			const text = JSON.stringify(value);
			if (typeof text === "string") return text;
		} catch {
			// walked below
		}
	}
	const parts: string[] = [];
	writeJson(value, { ...options, write: (chunk) => parts.push(chunk) });
	return parts.join("");
}

function toJsonValue(value: unknown, key: string | undefined): unknown {
	if (
		value !== null &&
		typeof value === "object" &&
		typeof (value as { toJSON?: unknown }).toJSON === "function"
	) {
		return (value as { toJSON(key: string): unknown }).toJSON(key ?? "");
	}
	if (typeof value === "bigint") return value.toString();
	return value;
}

function scalar(v: unknown): string {
	if (typeof v === "string") return JSON.stringify(v);
	if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
	return String(v);
}

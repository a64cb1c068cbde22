/**
 * Neutralising message content as written: every string in it, however deep
 * and whatever its block's `type`, except an image's data. Iterative (a
 * hand-built message may nest deeper than the stack) and copy-on-write: what
 * needs no escape keeps its identity, so content passes as it came.
 */

type Container = Record<string | number, unknown>;

interface Frame {
	src: Container;
	keys: string[];
	i: number;
	copy: Container | undefined;
}

/** `content` with `clean` applied to each of its strings (image data excepted). */
export function cleanContent(content: unknown, clean: (text: string) => string): unknown {
	if (typeof content === "string") return clean(content);
	if (content === null || typeof content !== "object") return content;
	const done = new Map<object, unknown>(); // shared parts are walked once
	const open = new Set<object>(); // a cycle is left as it is
	const frame = (src: object): Frame => {
		open.add(src);
		return { src: src as Container, keys: Object.keys(src), i: 0, copy: undefined };
	};
	const set = (f: Frame, key: string, value: unknown) => {
		f.copy ??= (Array.isArray(f.src) ? [...f.src] : { ...f.src }) as Container;
		f.copy[key] = value;
	};
	const stack = [frame(content)];
	let result: unknown = content;
	while (stack.length > 0) {
		const top = stack[stack.length - 1] as Frame;
		if (top.i === top.keys.length) {
			stack.pop();
			open.delete(top.src);
			const out = top.copy ?? top.src;
			done.set(top.src, out);
			const parent = stack[stack.length - 1];
			if (parent === undefined) result = out;
			else {
				if (out !== top.src) set(parent, parent.keys[parent.i] as string, out);
				parent.i++;
			}
			continue;
		}
		const key = top.keys[top.i] as string;
		const value = top.src[key];
		if (isImageData(top.src, key)) top.i++;
		else if (typeof value === "string") {
			const cleaned = clean(value);
			if (cleaned !== value) set(top, key, cleaned);
			top.i++;
		} else if (value !== null && typeof value === "object" && !open.has(value)) {
			const seen = done.get(value);
			if (seen === undefined && !done.has(value)) {
				stack.push(frame(value));
				continue;
			}
			if (seen !== value) set(top, key, seen);
			top.i++;
		} else top.i++;
	}
	return result;
}

/** An image block's payload: base64 bytes, never text. */
function isImageData(container: Container, key: string): boolean {
	return key === "data" && container.type === "image" && !Array.isArray(container);
}

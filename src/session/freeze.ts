/**
 * Freezing the messages a bundle hands out: they are shared with the
 * service's open session, so a caller that changed one would change every
 * later bundle. Deep and iterative (a message nested 100,000 deep cannot
 * overflow the stack); an object found frozen is taken as frozen all the way
 * down, as everything frozen here is, so a message is frozen only once.
 */
export function deepFreeze<T>(value: T): T {
	if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
	const stack: unknown[] = [value];
	for (let v = stack.pop(); v !== undefined || stack.length > 0; v = stack.pop()) {
		if (typeof v !== "object" || v === null || Object.isFrozen(v)) continue;
		Object.freeze(v);
		if (Array.isArray(v)) {
			for (const item of v) if (typeof item === "object" && item !== null) stack.push(item);
		} else {
			for (const key in v) {
				const item = (v as Record<string, unknown>)[key];
				if (typeof item === "object" && item !== null) stack.push(item);
			}
		}
	}
	return value;
}

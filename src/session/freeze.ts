/**
 * Freezing the messages a bundle hands out: they are shared with the
 * service's open session, so a caller that changed one would change every
 * later bundle. Frozen: the message, each object or array it holds (content,
 * usage, details) and each element of those (content blocks). Values nested
 * deeper (a tool call's arguments) are shared as they are: freezing every
 * object of a long session costs more than reading it (measured: about 10%
 * of a 100k-entry load), so the guarantee stops at the blocks.
 */
export function freezeMessage<T extends object>(message: T): T {
	if (Object.isFrozen(message)) return message;
	Object.freeze(message);
	for (const value of Object.values(message)) {
		if (typeof value !== "object" || value === null) continue;
		Object.freeze(value);
		if (!Array.isArray(value)) continue;
		for (const item of value) if (typeof item === "object" && item !== null) Object.freeze(item);
	}
	return message;
}

/**
 * What the library says of a bundle is what it does: the arrays a load
 * hands out are frozen, and a caller's attempt to change them neither
 * succeeds nor reaches the next load of the same session.
 */
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";

describe("a loaded bundle", () => {
	it("has frozen messages and entry ids that a later load does not share changes of", () => {
		const path = writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "hello")]);
		const service = new ContextService();
		const first = service.loadSync(path);
		expect(Object.isFrozen(first.messages)).toBe(true);
		expect(Object.isFrozen(first.entryIds)).toBe(true);
		expect(first.messages.every((m) => Object.isFrozen(m))).toBe(true);
		expect(() => (first.messages as unknown[]).push({ role: "user", content: "x" })).toThrow(
			TypeError,
		);
		const again = service.loadSync(path);
		expect(again.messages).toHaveLength(2);
		appendFileSync(path, `${JSON.stringify(user("u2", "a1", "more"))}\n`);
		const grown = service.loadSync(path);
		expect(grown.messages).toHaveLength(3);
		expect(first.messages).toHaveLength(2);
		expect(Object.isFrozen(grown.messages)).toBe(true);
	});
});

/**
 * What `convertToLlm` hands out is never changed behind a caller's back: a
 * message a later conversion shares with it (a stored message, a tool
 * result's stub, cached with the session) is frozen, and a framed message is
 * new each time. A field a caller adds (a provider's `cache_control`) cannot
 * reach the next conversion.
 */
import { describe, expect, it } from "vitest";
import { ContextService, convertToLlm, type LlmMessage } from "../../src/index.js";
import { entry, writeLog } from "../support/session.js";
import { twoReads, virtualizingSet } from "../support/tool-results.js";

/** A large read (a stub), a small one (stored as is) and a bash execution (framed). */
function session() {
	return [
		...twoReads(),
		entry("b1", "r2", {
			type: "message",
			message: {
				role: "bashExecution",
				command: "ls",
				output: "a",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 3,
			},
		}),
	];
}

/** Adds a field to `message` as a caller might; false when the message refuses it. */
function mark(message: LlmMessage): boolean {
	try {
		message.cache_control = { type: "ephemeral" };
		(message.content as object[]).push({ type: "text", text: "added" });
		return true;
	} catch (error) {
		expect(error).toBeInstanceOf(TypeError);
		return false;
	}
}

describe("messages convertToLlm hands out", () => {
	const templates = virtualizingSet();

	for (const [name, convert] of [
		[
			"a service's",
			(s: ContextService, b: Parameters<typeof convertToLlm>[0]) => s.convertToLlm(b as never),
		],
		[
			"the library's",
			(_: ContextService, b: Parameters<typeof convertToLlm>[0]) => convertToLlm(b),
		],
	] as const) {
		it(`through ${name} conversion: shared ones frozen, framed ones new each call`, () => {
			const service = new ContextService({ templates });
			const bundle = service.loadSync(writeLog(session()));
			expect(bundle.meta.virtualized.map((v) => v.index)).toEqual([2]);
			const first = convert(service, bundle);
			const second = convert(service, bundle);
			const stub = first[2] as LlmMessage;
			expect(Object.isFrozen(stub)).toBe(true);
			expect(Object.isFrozen(stub.content)).toBe(true);
			expect(mark(stub)).toBe(false);
			expect(mark(first[4] as LlmMessage)).toBe(false); // the stored message itself
			const framed = first[5] as LlmMessage;
			expect(framed.role).toBe("user");
			expect(second[5]).not.toBe(framed);
			expect(mark(framed)).toBe(true);
			const third = convert(service, bundle);
			for (const m of third) {
				expect(m).not.toHaveProperty("cache_control");
				const blocks = Array.isArray(m.content) ? (m.content as { text?: string }[]) : [];
				expect(blocks.some((b) => b.text === "added")).toBe(false);
			}
			expect(third[2]).toEqual(second[2]);
		});
	}
});

/** A read that fails after the file was opened (EIO) is a located io error, sync or async. */
import { describe, expect, it, vi } from "vitest";

const state = vi.hoisted(() => ({ readsBeforeFailure: Number.POSITIVE_INFINITY }));

vi.mock("node:fs", async (importOriginal) => {
	const fs = await importOriginal<typeof import("node:fs")>();
	const eio = () => Object.assign(new Error("EIO: i/o error, read"), { code: "EIO", errno: -5 });
	return {
		...fs,
		readSync: (...args: Parameters<typeof fs.readSync>) => {
			if (state.readsBeforeFailure-- <= 0) throw eio();
			return fs.readSync(...args);
		},
		read: (...args: unknown[]) => {
			const callback = args.at(-1) as (error: Error | null, n: number) => void;
			if (state.readsBeforeFailure-- <= 0) {
				callback(eio(), 0);
				return;
			}
			(fs.read as (...a: unknown[]) => void)(...args);
		},
	};
});

const { ContextError, ContextService } = await import("../../src/index.js");
const { HEADER, user, writeLog } = await import("../support/session.js");

describe("EIO after open", () => {
	it("is a ContextError naming the file, never a bare Node error", async () => {
		const path = writeLog([HEADER, user("u1", null, "hi")]);
		for (const failAfter of [0, 1]) {
			state.readsBeforeFailure = failAfter;
			expect(() => new ContextService().loadSync(path)).toThrow(ContextError);
			state.readsBeforeFailure = failAfter;
			const error = await new ContextService().load(path).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(ContextError);
			expect(error).toMatchObject({ code: "io", file: path });
			expect((error as Error).message).toMatch(/EIO/);
		}
		state.readsBeforeFailure = Number.POSITIVE_INFINITY;
		expect(new ContextService().loadSync(path).messages).toHaveLength(1);
	});
});

/**
 * The service's loads: `load` reads asynchronously (other work runs while it
 * reads), loads of one file run one after the other, and the messages a
 * bundle hands out are frozen, so no caller can change the service's cache.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError, ContextService, loadContext } from "../../src/index.js";
import { holdsCompactionTag } from "../../src/log/compaction-hint.js";
import { assistant, entry, HEADER, user, writeLog } from "../support/session.js";

const many = () => {
	const lines: unknown[] = [HEADER];
	for (let i = 0; i < 2000; i++)
		lines.push(user(`u${i}`, i === 0 ? null : `u${i - 1}`, `message ${i}`));
	return writeLog(lines);
};

describe("load", () => {
	it("is asynchronous underneath: the event loop turns while it reads", async () => {
		const path = many();
		const immediate = new Promise<boolean>((resolve) => setImmediate(() => resolve(true)));
		let beforeImmediate = true;
		void immediate.then(() => {
			beforeImmediate = false;
		});
		const bundle = await new ContextService().load(path);
		expect(bundle.messages).toHaveLength(2000);
		expect(beforeImmediate).toBe(false);
	});

	it("runs concurrent loads of one kept-open file one after the other, each as a fresh load would", async () => {
		const path = many();
		const service = new ContextService();
		const [a, b, c] = await Promise.all([
			service.load(path),
			service.load(path),
			service.load(path),
		]);
		const fresh = JSON.stringify(new ContextService().loadSync(path));
		for (const bundle of [a, b, c]) expect(JSON.stringify(bundle)).toBe(fresh);
	});
});

describe("bundle messages", () => {
	it("are frozen down to their blocks, so a caller cannot corrupt the next bundle", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			entry("b1", "a1", { type: "branch_summary", summary: "left", fromId: "x" }),
		]);
		const service = new ContextService();
		const first = service.loadSync(path);
		const before = JSON.stringify(first.messages);
		const message = first.messages[1] as unknown as { content: { text: string }[] };
		expect(Object.isFrozen(message)).toBe(true);
		expect(() => {
			(message.content[0] as { text: string }).text = "changed";
		}).toThrow(TypeError);
		expect(() => {
			(first.messages[2] as { summary: string }).summary = "changed";
		}).toThrow(TypeError);
		expect(JSON.stringify(service.loadSync(path).messages)).toBe(before);
	});
});

describe("options a caller got wrong", () => {
	it("are a located bad_options error naming the option, never a TypeError from deep inside", async () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const service = new ContextService();
		const wrong: [unknown, RegExp][] = [
			[{ tools: "read" }, /option tools must be an array of tool names/],
			[{ tools: ["read", 3] }, /option tools must be an array/],
			[{ leaf: 7 }, /option leaf must be a string, not number 7/],
			[{ virtualize: "no" }, /option virtualize must be true or false/],
			["strict", /the options must be an object/],
		];
		for (const [options, reason] of wrong) {
			const error = await service.load(path, options as never).catch((e: unknown) => e);
			expect(error, JSON.stringify(options)).toBeInstanceOf(ContextError);
			expect((error as ContextError).code).toBe("bad_options");
			expect((error as ContextError).message).toMatch(reason);
			expect(() => service.loadSync(path, options as never)).toThrow(reason);
		}
		expect(() => service.loadSync(42 as never)).toThrow(/the path must be a non-empty string/);
		expect(() => new ContextService({ strict: true, lenient: true })).toThrow(/contradict/);
		// A service's options too, and a one-off load's keys: a slip is said, never a lenient read.
		for (const [options, reason] of [
			[{ strict: "yes" }, /option strict must be true or false, not "yes"/],
			[{ lenient: 0 }, /option lenient must be true or false/],
			[{ retainBytes: -1 }, /option retainBytes must be a number ≥ 0/],
			[{ templates: 5 }, /option templates must be a string/],
		] as const) {
			expect(() => new ContextService(options as never)).toThrow(reason);
			await expect(loadContext(path, options as never)).rejects.toThrow(reason);
		}
		await expect(loadContext(path, { strit: true } as never)).rejects.toThrow(
			/unknown option strit \(known: leaf, /,
		);
		expect((await loadContext(path, { strict: true, leaf: "u1" })).messages).toHaveLength(1);
		expect(service.loadSync(path, { tools: ["read"], leaf: "u1" }).messages).toHaveLength(1);
	});
});

describe("a one-off process's load", () => {
	it("leaves its messages unfrozen, and a later load of the same service projects afresh, frozen", async () => {
		const path = writeLog([HEADER, user("u1", null, "one"), assistant("a1", "u1", "two")]);
		const service = new ContextService();
		const once = (await service.composeOnce(path)).bundle;
		expect(Object.isFrozen(once.messages[0])).toBe(false);
		const later = service.loadSync(path);
		expect(JSON.stringify(later.messages)).toBe(JSON.stringify(once.messages));
		expect(later.messages.every((m) => Object.isFrozen(m))).toBe(true);
	});
});

describe("the lean-read hint", () => {
	it("finds a compaction whatever the spacing and key order", () => {
		const found = [
			'{"type":"compaction","id":"k"}',
			'{"type" : "compaction"}',
			'{"id":"k","summary":"s","type":\t"compaction"}',
			'{\n"type"\n:\n"compaction"}',
		];
		for (const text of found) expect(holdsCompactionTag(Buffer.from(text)), text).toBe(true);
		const not = [
			'{"type":"message","text":"compaction"}',
			'{"customType":"compaction"}',
			'"compaction"',
		];
		for (const text of not) expect(holdsCompactionTag(Buffer.from(text)), text).toBe(false);
	});
});

describe("the reader's runtime imports", () => {
	it("leave zod out of src/log and src/session but for the lazy describer", () => {
		const offenders: string[] = [];
		for (const folder of ["log", "session"]) {
			const dir = join(import.meta.dirname, "..", "../src", folder);
			for (const file of readdirSync(dir)) {
				const text = readFileSync(join(dir, file), "utf8");
				const runtime = /^import\s+(?!type\b)[^;]*from\s+"zod"/m.test(text);
				const schema = /^import\s+(?!type\b)[^;]*from\s+"\.\.?\/(?:log\/)?schema\.js"/m.test(text);
				const fs = /from\s+"node:fs/.test(text) && folder === "session";
				if (runtime || schema || fs) offenders.push(`${folder}/${file}`);
			}
		}
		expect(offenders).toEqual(["log/describe.ts"]);
	});
});

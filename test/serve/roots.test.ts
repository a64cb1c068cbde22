/**
 * `serve --root DIR`: a daemon that serves only its own session folders. A
 * path is judged by its real path (`..` and symlinks resolved), so neither
 * a `..` nor a link inside a root reaches a file outside it.
 */
import { copyFileSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { inProcess } from "../support/serve.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";

function layout() {
	const base = realpathSync(tempDir("theway-roots-"));
	const root = join(base, "sessions");
	const outside = join(base, "elsewhere");
	mkdirSync(root);
	mkdirSync(outside);
	const log = writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "hello")]);
	copyFileSync(log, join(root, "in.jsonl"));
	copyFileSync(log, join(outside, "out.jsonl"));
	symlinkSync(join(outside, "out.jsonl"), join(root, "link.jsonl"));
	return { root, outside };
}

describe("serve with roots", () => {
	it("loads a log inside a root and refuses one outside, by its real path (-32003)", async () => {
		const { root, outside } = layout();
		const { client } = inProcess({ roots: [root] });
		const inside = await client.call("load", { path: join(root, "in.jsonl") });
		expect(inside.error).toBeUndefined();
		expect(inside.result?.messages).toHaveLength(2);
		for (const path of [
			join(outside, "out.jsonl"),
			join(root, "..", "elsewhere", "out.jsonl"),
			join(root, "link.jsonl"),
			join(outside, "missing.jsonl"),
			"/no/such/folder/x.jsonl",
		]) {
			const refused = await client.call("load", { path });
			expect(refused.error?.code, path).toBe(-32003);
			expect(refused.error?.message).toContain("outside");
		}
	});

	it("names a missing log inside a root as missing, not refused", async () => {
		const { root } = layout();
		const { client } = inProcess({ roots: [root] });
		const reply = await client.call("load", { path: join(root, "not-yet.jsonl") });
		expect(reply.error?.code).toBe(-32001);
	});

	it("serves any path without roots (the default)", async () => {
		const { outside } = layout();
		const { client } = inProcess();
		const reply = await client.call("load", { path: join(outside, "out.jsonl") });
		expect(reply.error).toBeUndefined();
	});
});

describe("serve --root on the command line", () => {
	it("refuses a root that is no folder as a usage error (exit 2)", async () => {
		let stderr = "";
		const code = await main(["serve", "--stdio", "--root", "/no/such/folder"], {
			stdout: () => {},
			stderr: (t) => {
				stderr += t;
			},
			cwd: process.cwd(),
		});
		expect(code).toBe(2);
		expect(stderr).toContain("--root /no/such/folder");
	});
});

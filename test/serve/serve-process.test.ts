/**
 * The sidecar as a process: a flood of 10,000 pipelined requests to the
 * real process (each answered once, in order, then a clean end), the end of
 * its input, and templates it cannot use (it does not start, and says why).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { spawned } from "../support/serve.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { BUNDLED_SET, NEWEST } from "../support/template-sets.js";

const good = () => writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "hello")]);

describe("the real process", () => {
	it("answers a flood of 10,000 pipelined requests, each once, then ends cleanly", async () => {
		const { client, child, stderr } = spawned(["--max-sessions", "4", "--quiet"]);
		const paths = Array.from({ length: 8 }, good);
		const dir = tempDir("theway-flood-");
		const N = 10_000;
		const lines: string[] = [];
		for (let i = 0; i < N; i++) {
			const kind = i % 10;
			if (kind === 7) lines.push("{oops");
			else if (kind === 8)
				lines.push(
					JSON.stringify({ jsonrpc: "2.0", id: i, method: "load", params: { path: dir } }),
				);
			else
				lines.push(
					JSON.stringify({ jsonrpc: "2.0", id: i, method: "load", params: { path: paths[i % 8] } }),
				);
		}
		writeFileSync(join(dir, "unused"), "");
		client.send(lines.join("\n"));
		const codes = new Map<number | undefined, number>();
		let expectedId = 0;
		for (let i = 0; i < N; i++) {
			const reply = await client.next();
			const code = reply.error?.code;
			codes.set(code, (codes.get(code) ?? 0) + 1);
			if (code !== -32700) {
				expect(reply.id).toBe(expectedId);
			}
			expectedId = i + 1;
			if (code === undefined) expect(reply.result?.messages).toHaveLength(2);
		}
		expect(codes.get(undefined)).toBe(8000);
		expect(codes.get(-32700)).toBe(1000);
		expect(codes.get(-32001)).toBe(1000);
		const rss = await client.call("shutdown");
		expect(rss.result).toBeNull();
		client.end();
		expect(await client.done).toEqual({ code: 0, signal: null });
		expect(stderr()).toBe("");
		expect(child.exitCode).toBe(0);
	}, 120_000);

	it("ends cleanly at the end of its input", async () => {
		const { client, stderr } = spawned();
		const reply = await client.call("load", { path: good() });
		expect(reply.result?.messages).toHaveLength(2);
		client.end();
		expect(await client.done).toEqual({ code: 0, signal: null });
		expect(stderr()).toBe("");
	});
});

describe("serve --stdio with templates it cannot use", () => {
	it("does not start: a folder that is not there (wrong usage, exit 2), or a set that does not build, located (exit 1)", async () => {
		const missing = await runCli([
			"serve",
			"--stdio",
			"--templates",
			join(tmpdir(), "no-such-templates"),
		]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toMatch(
			/^theway-context: error: --templates .*no-such-templates: no such folder\n/,
		);
		const broken = tempDir("theway-serve-broken-");
		cpSync(join(BUNDLED_SET, ".."), broken, { recursive: true });
		cpSync(join(BUNDLED_SET, "../../categories.yaml"), join(broken, "categories.yaml"));
		const harness = join(broken, NEWEST, "harness.hbs");
		writeFileSync(harness, `${readFileSync(harness, "utf8")}{{#if}}\n`);
		const run = await runCli(["serve", "--stdio", "--templates", broken]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`${harness}:`);
	});
});

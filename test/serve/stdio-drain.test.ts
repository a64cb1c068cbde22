/**
 * Large replies over a real pipe: each one fills the pipe, so the sidecar
 * waits for it to drain before reading on. Waiting must not leave listeners
 * behind: 40 large replies in one process, and stderr has no
 * MaxListenersExceededWarning; in process, the output's listener counts are
 * back where they started after every reply.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ContextError } from "../../src/errors.js";
import { Sidecar } from "../../src/serve/server.js";
import { serveStreams } from "../../src/serve/stdio.js";
import { ROOT, spawned } from "../support/serve.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";

const REPLIES = 40;

/** A log whose reply is well over a pipe's buffer (about 1 MB). */
function largeLog(): string {
	const lines: unknown[] = [HEADER];
	const text = "word ".repeat(2_000);
	for (let i = 0; i < 100; i++) {
		const parent = i === 0 ? null : `m${i - 1}`;
		lines.push(i % 2 === 0 ? user(`m${i}`, parent, text) : assistant(`m${i}`, parent, text));
	}
	return writeLog(lines);
}

describe("large replies", () => {
	it(`${REPLIES} full loads of a large log print no listener warning`, async () => {
		const path = largeLog();
		const { client, stderr } = spawned(["--quiet"]);
		for (let i = 0; i < REPLIES; i++)
			client.send({ jsonrpc: "2.0", id: i, method: "load", params: { path } });
		for (let i = 0; i < REPLIES; i++) {
			const reply = await client.next();
			expect(reply.id).toBe(i);
			expect(reply.result?.messages?.length).toBe(100);
		}
		expect((await client.call("shutdown")).result).toBe(null);
		client.end();
		await client.done;
		expect(stderr()).not.toContain("MaxListenersExceededWarning");
		expect(stderr()).toBe("");
	}, 120_000);

	it("leaves no drain, close or error listener behind on the output", async () => {
		const path = largeLog();
		const input = new PassThrough();
		const output = new PassThrough({ highWaterMark: 1024 });
		const counts = () =>
			["drain", "close", "error"].map((name) => output.listenerCount(name)).join(",");
		const before = counts();
		const options = { maxSessions: 4, warn: () => {}, bug: () => {} };
		const done = serveStreams(input, output, options, new Sidecar(options));
		const seen: string[] = [];
		let buffered = "";
		for (let i = 0; i < REPLIES; i++) {
			input.write(
				`${JSON.stringify({ jsonrpc: "2.0", id: i, method: "load", params: { path } })}\n`,
			);
			// Read the reply slowly, so the sidecar waits for the output to drain.
			while (!buffered.includes("\n")) {
				const chunk = output.read() as Buffer | null;
				if (chunk === null) await new Promise((r) => setTimeout(r, 1));
				else buffered += chunk.toString();
			}
			buffered = buffered.slice(buffered.indexOf("\n") + 1);
			seen.push(counts());
		}
		input.end();
		output.resume();
		await done;
		expect(new Set(seen).size).toBe(1);
		expect(counts()).toBe(before);
	}, 120_000);
});

describe("a client that stops reading", () => {
	const request = (path: string) =>
		`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } })}\n`;

	it("ends the sidecar quietly (EPIPE), as a reader that stops early ends render", () => {
		const path = largeLog();
		const bin = join(ROOT, "dist/cli/bin.cjs");
		const run = spawnSync(
			"bash",
			[
				"-c",
				`set -o pipefail; printf '%s' '${request(path).trim()}' | "${process.execPath}" "${bin}" serve --stdio | head -c 100`,
			],
			{ encoding: "utf8" },
		);
		expect(run.stdout).toMatch(/^\{"jsonrpc":"2\.0","id":1,/);
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
	});

	it("is a located io error when a reply cannot be written for another reason", async () => {
		const path = largeLog();
		const input = new PassThrough();
		const full = Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
		const output = new Writable({ write: (_chunk, _encoding, done) => done(full) });
		const options = { maxSessions: 4, warn: () => {}, bug: () => {} };
		const done = serveStreams(input, output, options, new Sidecar(options));
		input.write(request(path));
		input.write(request(path));
		const error = await done.then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(ContextError);
		expect((error as ContextError).code).toBe("io");
		expect((error as ContextError).message).toMatch(/cannot write the reply \(ENOSPC/);
	});
});

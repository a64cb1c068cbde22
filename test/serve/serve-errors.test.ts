/**
 * The sidecar under bad requests: every error code, each answered in turn
 * while the server and the other sessions go on; pipelined requests; no
 * more requests read while its replies are not (the real process:
 * serve-process.test.ts).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { Sidecar } from "../../src/serve/server.js";
import { serveStreams } from "../../src/serve/stdio.js";
import { ContextService } from "../../src/service/context-service.js";
import { type Client, inProcess } from "../support/serve.js";
import { assistant, HEADER, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const zip = <A, B>(a: readonly A[], b: readonly B[]): [A, B][] => a.map((x, i) => [x, b[i] as B]);

const good = () => writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "hello")]);

/** The error of the reply to `line` (sent raw), with the server still answering after it. */
async function errorOf(client: Client, line: string) {
	client.send(line);
	const reply = await client.next();
	const after = await client.call("load", { path: good() });
	expect(after.result?.messages).toHaveLength(2);
	return reply;
}

describe("error codes", () => {
	it("-32700 for a line that is not JSON", async () => {
		const { client } = inProcess();
		const reply = await errorOf(client, "{not json");
		expect(reply).toMatchObject({ id: null, error: { code: -32700 } });
	});

	it.each([
		["a JSON value that is not an object", "42"],
		["jsonrpc missing", '{"id":1,"method":"load"}'],
		["jsonrpc 1.0", '{"jsonrpc":"1.0","id":1,"method":"load"}'],
		["a method that is not a string", '{"jsonrpc":"2.0","id":1,"method":7}'],
		["an id that is an object", '{"jsonrpc":"2.0","id":{},"method":"load"}'],
		["positional params", '{"jsonrpc":"2.0","id":1,"method":"load","params":["a.jsonl"]}'],
		["an empty batch", "[]"],
	])("-32600 for %s", async (_, line) => {
		const { client } = inProcess();
		const reply = await errorOf(client, line);
		expect(reply.error?.code).toBe(-32600);
	});

	it("-32600 for a line over the limit, which is never held whole", async () => {
		const { client } = inProcess({ maxRequestBytes: 64 * 1024 });
		const huge = JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "load",
			params: { path: good(), memory: "x".repeat(10 * 1024 * 1024) },
		});
		const reply = await errorOf(client, huge);
		expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
		expect(reply.error?.message).toContain(String(huge.length));
	});

	it("-32601 for an unknown method, with the request's id", async () => {
		const { client } = inProcess();
		const reply = await errorOf(client, '{"jsonrpc":"2.0","id":"x-1","method":"render"}');
		expect(reply).toMatchObject({ id: "x-1", error: { code: -32601 } });
	});

	it("-32601 for a method named like an Object property", async () => {
		const { client } = inProcess();
		const reply = await errorOf(client, '{"jsonrpc":"2.0","id":3,"method":"toString"}');
		expect(reply.error?.code).toBe(-32601);
	});

	it.each([
		["no path", {}],
		["a path that is a number", { path: 1 }],
		["tools that are not strings", { path: "a.jsonl", tools: [1] }],
		["an unknown format", { path: "a.jsonl", format: "text" }],
		["an unknown param", { path: "a.jsonl", leafId: "x" }],
	])("-32602 for %s", async (_, params) => {
		const { client } = inProcess();
		const reply = await errorOf(
			client,
			JSON.stringify({ jsonrpc: "2.0", id: 9, method: "load", params }),
		);
		expect(reply).toMatchObject({ id: 9, error: { code: -32602 } });
	});

	it("-32001 for a missing file, with the code and the file", async () => {
		const { client } = inProcess();
		const path = join(tmpdir(), "no-such-session.jsonl");
		const reply = await errorOf(
			client,
			JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
		);
		expect(reply.error?.code).toBe(-32001);
		expect(reply.error?.data).toMatchObject({ code: "io", file: path });
	});

	it("-32001 for a directory", async () => {
		const { client } = inProcess();
		const path = tempDir("theway-dir-");
		const reply = await errorOf(
			client,
			JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
		);
		expect(reply.error?.data).toMatchObject({ code: "io", file: path });
	});

	it("-32001 for a path through a file, a symlink loop and a name too long, as the CLI says", async () => {
		const { client } = inProcess();
		const dir = tempDir("theway-paths-");
		symlinkSync(join(dir, "b"), join(dir, "a"));
		symlinkSync(join(dir, "a"), join(dir, "b"));
		const paths = [join(good(), "x"), join(dir, "a"), join(dir, `${"n".repeat(300)}.jsonl`)];
		for (const [path, errno] of zip(paths, ["ENOTDIR", "ELOOP", "ENAMETOOLONG"])) {
			const reply = await errorOf(
				client,
				JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
			);
			expect(reply.error?.code, path).toBe(-32001);
			expect(reply.error?.data, path).toMatchObject({ code: "io", file: path });
			expect(reply.error?.data?.message, path).toContain(errno);
		}
	});

	it("-32602 for an empty path, and for one longer than any path (never echoed back)", async () => {
		const { client } = inProcess();
		for (const path of ["", `/${"x".repeat(5_000_000)}`]) {
			const reply = await errorOf(
				client,
				JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
			);
			expect(reply.error?.code).toBe(-32602);
			expect(JSON.stringify(reply).length).toBeLessThan(1000);
		}
	});

	const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
	it.skipIf(!hasMkfifo)("-32001 for a FIFO, without waiting for a writer", async () => {
		const { client } = inProcess();
		const path = join(tempDir("theway-fifo-"), "session.jsonl");
		execFileSync("mkfifo", [path]);
		const reply = await errorOf(
			client,
			JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
		);
		expect(reply.error?.data).toMatchObject({ code: "io", file: path });
	});

	it("-32001 for a damaged log, located like the CLI's errors", async () => {
		const { client } = inProcess();
		const path = writeLog("\u0000\u0001 not a session log\n");
		const reply = await errorOf(
			client,
			JSON.stringify({ jsonrpc: "2.0", id: 1, method: "load", params: { path } }),
		);
		let expected: { code: string; line?: number } | undefined;
		try {
			new ContextService().loadSync(path);
		} catch (error) {
			expected = error as { code: string; line?: number };
		}
		expect(expected).toBeDefined();
		expect(reply.error?.code).toBe(-32001);
		expect(reply.error?.data).toMatchObject({
			code: expected?.code,
			file: path,
			line: expected?.line,
		});
		expect(reply.error?.message).toContain(path);
	});

	it("-32700 for a line that is not UTF-8, not its bytes read as U+FFFD", async () => {
		const { sidecar } = inProcess();
		const request = '{"jsonrpc":"2.0","id":1,"method":"load","params":{"path":"a\xff.jsonl"}}';
		const bytes = Buffer.from(request, "latin1");
		const reply = JSON.parse((await sidecar.handle(bytes)) as string);
		expect(reply).toEqual({
			jsonrpc: "2.0",
			id: null,
			error: { code: -32700, message: "the line is not valid UTF-8" },
		});
		// A truncated sequence and an overlong encoding are not UTF-8 either; U+FFFD written as such is.
		for (const bad of [
			[0xe2, 0x82],
			[0xc0, 0xaf],
		]) {
			const line = Buffer.concat([Buffer.from('"'), Buffer.from(bad), Buffer.from('"')]);
			expect(JSON.parse((await sidecar.handle(line)) as string).error.code).toBe(-32700);
		}
		const replacement = await sidecar.handle(Buffer.from('"\ufffd"'));
		expect(JSON.parse(replacement as string).error.code).toBe(-32600);
	});

	it("-32001 for a message nested too deeply to send, naming its file, line and entry", async () => {
		const { client } = inProcess();
		const depth = 100_000;
		const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
		const reading = assistant("a1", "u1", "reading") as { message?: object };
		const call = { type: "toolCall", id: "c1", name: "read", arguments: { path: "x" } };
		const lines = [
			JSON.stringify(HEADER),
			JSON.stringify(user("u1", null, "hi")),
			JSON.stringify({ ...reading, message: { ...reading.message, content: [call] } }),
			`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:10:00.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":3,"details":${nested}}}`,
		];
		const path = writeLog(`${lines.join("\n")}\n`);
		for (const format of ["agent", "llm"]) {
			const reply = await client.call("load", { path, format });
			expect(reply.error?.code, format).toBe(-32001);
			expect(reply.error?.data).toMatchObject({ code: "render", file: path, line: 4 });
			expect(reply.error?.message).toBe(
				`${path}:4: message 2 (entry r1) is nested too deeply to send as JSON`,
			);
		}
		// The server goes on.
		expect((await client.call("load", { path: good() })).result?.messages).toHaveLength(2);
	});

	it("-32603 for a bug, and the server goes on", async () => {
		const { client, logs } = inProcess();
		const spy = vi
			.spyOn(ContextService.prototype, "compose")
			.mockRejectedValueOnce(new TypeError("boom"));
		try {
			const reply = await errorOf(
				client,
				JSON.stringify({ jsonrpc: "2.0", id: 5, method: "load", params: { path: good() } }),
			);
			expect(reply).toMatchObject({ id: 5, error: { code: -32603 } });
			expect(logs.join("")).toContain("boom");
		} finally {
			spy.mockRestore();
		}
	});

	it("a failing session does not disturb another one", async () => {
		const { client } = inProcess();
		const path = good();
		const first = await client.call("load", { path });
		await client.call("load", { path: join(tmpdir(), "missing.jsonl") });
		appendFileSync(path, `${JSON.stringify(user("u2", "a1", "more"))}\n`);
		const next = await client.call("load", { path, since: first.result?.cursor });
		expect(next.result).toMatchObject({ reset: false, from: 2 });
		expect(next.result?.messages).toHaveLength(1);
	});
});

describe("pipelining and notifications", () => {
	it("answers requests written all at once, in order, each with its id", async () => {
		const { client } = inProcess();
		const [a, b] = [good(), good()];
		const requests = [
			{ jsonrpc: "2.0", id: "a", method: "load", params: { path: a } },
			"not json",
			{ jsonrpc: "2.0", method: "close", params: { path: b } }, // a notification: no reply
			{ jsonrpc: "2.0", id: 2, method: "load", params: { path: b, format: "agent" } },
			{ jsonrpc: "2.0", id: 3, method: "nope" },
			{ jsonrpc: "2.0", id: null, method: "close", params: { path: a } },
		];
		client.send(requests.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n"));
		const replies = [
			await client.next(),
			await client.next(),
			await client.next(),
			await client.next(),
			await client.next(),
		];
		expect(replies.map((r) => r.id)).toEqual(["a", null, 2, 3, null]);
		expect(replies.map((r) => r.error?.code)).toEqual([
			undefined,
			-32700,
			undefined,
			-32601,
			undefined,
		]);
		expect(replies[4]?.result).toEqual({ closed: true });
	});

	it("answers a batch with one array", async () => {
		const { client } = inProcess();
		client.send([
			{ jsonrpc: "2.0", id: 1, method: "load", params: { path: good() } },
			{ jsonrpc: "2.0", id: 2, method: "nope" },
			{ jsonrpc: "2.0", method: "nope" },
		]);
		const replies = (await client.next()) as unknown as { id: number; error?: { code: number } }[];
		expect(replies.map((r) => r.id)).toEqual([1, 2]);
		expect(replies[1]?.error?.code).toBe(-32601);
	});
});

describe("bounded memory", () => {
	it("reads no more requests while its replies are not read", async () => {
		const input = new PassThrough();
		const output = new PassThrough();
		const options = { maxSessions: 4, warn: () => {}, bug: () => {} };
		const sidecar = new Sidecar(options);
		let handled = 0;
		const handle = sidecar.handle.bind(sidecar);
		sidecar.handle = (line) => {
			handled++;
			return handle(line);
		};
		const done = serveStreams(input, output, options, sidecar).finally(() => output.end());
		const path = good();
		const N = 1000;
		for (let i = 0; i < N; i++) {
			input.write(
				`${JSON.stringify({ jsonrpc: "2.0", id: i, method: "load", params: { path } })}\n`,
			);
		}
		input.end();
		// Until the server stops making progress (it waits for the client) or has answered all.
		for (let seen = -1; handled !== seen && handled < N; ) {
			seen = handled;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const oneReply = JSON.stringify(await inProcess().client.call("load", { path })).length;
		const buffered = output.readableLength + output.writableLength;
		expect(handled).toBeLessThan(N / 10);
		expect(buffered).toBeLessThan((N / 10) * oneReply);
		let count = 0;
		for await (const _ of createInterface({ input: output })) count++;
		await done;
		expect(count).toBe(N);
	});
});

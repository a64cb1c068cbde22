/**
 * The preview server without a browser, as a stranger sees it: the Host
 * check, requests that try to reach files, unknown session ids, methods,
 * and the command's errors (a port in use, a port that is not one).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { ContextError } from "../../src/errors.js";
import type { FailedView } from "../../src/preview/protocol.js";
import { type PreviewServer, startPreview } from "../../src/preview/server.js";
import { getView, rawGet, scratch } from "../support/preview.js";

let server: PreviewServer;
let paths: { root: string; sessions: string; templates: string };

beforeAll(async () => {
	paths = scratch();
	server = await startPreview({ ...paths, port: 0, cwd: paths.root });
});
afterAll(() => server.close());

const view = (session: string, set = "") => getView(server.port, session, set);

describe("who may ask", () => {
	it("binds 127.0.0.1 and prints its URL with the port it got", () => {
		expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
		expect(server.port).toBeGreaterThan(0);
	});

	it("answers localhost (in any case) and 127.0.0.1 with its own port", async () => {
		const hosts = [
			`localhost:${server.port}`,
			`LocalHost:${server.port}`,
			`127.0.0.1:${server.port}`,
		];
		for (const host of hosts) {
			const reply = await rawGet(server.port, "/", host);
			expect(reply.status, host).toBe(200);
			expect(reply.body).toContain("<title>theway-context preview</title>");
		}
	});

	it("refuses any other Host with 403, on every route (DNS rebinding)", async () => {
		const hosts = [
			"evil.example",
			`evil.example:${server.port}`,
			"localhost",
			`localhost:${server.port + 1}`,
			`127.0.0.1.evil.example:${server.port}`,
			`[::1]:${server.port}`,
		];
		for (const host of hosts) {
			for (const path of [
				"/",
				"/app.js",
				"/api/sessions",
				"/api/view?session=1-normal.jsonl",
				"/events",
			]) {
				const reply = await rawGet(server.port, path, host);
				expect(reply.status, `${host} ${path}`).toBe(403);
				expect(reply.body).not.toContain("session");
			}
		}
	});
});

it("refuses a request without a Host (HTTP/1.0)", async () => {
	const socket = connect(server.port, "127.0.0.1");
	let answer = "";
	socket.setEncoding("utf8");
	socket.on("data", (chunk: string) => {
		answer += chunk;
	});
	socket.write("GET / HTTP/1.0\r\n\r\n");
	await new Promise((resolve) => socket.on("close", resolve));
	expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
});

describe("nothing but its own routes and sessions", () => {
	const secret = () => readFileSync(join(paths.sessions, "1-normal.jsonl"), "utf8").slice(0, 60);

	it("has no route to a file, however the path is spelled", async () => {
		writeFileSync(join(paths.sessions, "notes.txt"), "private notes");
		const attempts = [
			"/../../../../etc/passwd",
			"/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
			"/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
			"/app.js/../../package.json",
			"/..%5c..%5cpackage.json",
			"//etc/passwd",
			"/etc/passwd",
			`/${paths.sessions}/1-normal.jsonl`,
			"/1-normal.jsonl",
			"/server.js",
			"/protocol.js",
			"/client/app.js",
			"/app.ts",
			"/notes.txt",
			`http://127.0.0.1:${server.port}/etc/passwd`,
		];
		for (const path of attempts) {
			const reply = await rawGet(server.port, path);
			expect(reply.status, path).toBe(404);
			expect(reply.body, path).not.toMatch(/root:|"name": "theway-context"|private notes/);
			expect(reply.body, path).not.toContain(secret());
		}
	});

	it("names sessions only by the ids of its own list", async () => {
		const ids = [
			"../../../etc/passwd",
			"%2e%2e/package.json",
			"/etc/passwd",
			join(paths.sessions, "1-normal.jsonl"),
			"./1-normal.jsonl",
			"notes.txt",
			"1-NORMAL.jsonl",
			"",
		];
		for (const id of ids) {
			const { status, view: v } = await view(id);
			expect(status, id).toBe(404);
			expect(v.ok, id).toBe(false);
			expect((v as FailedView).kind).toBe("request");
		}
		const known = await view("1-normal.jsonl");
		expect(known.status).toBe(200);
		expect(known.view.ok).toBe(true);
	});

	it("serves the page and each of its script modules", async () => {
		const page = await rawGet(server.port, "/");
		const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((m) => m[1] as string);
		expect(scripts).toEqual(["/app.js"]);
		const app = await rawGet(server.port, "/app.js");
		const imported = [...app.body.matchAll(/from "\.(\/[a-z]+\.js)"/g)].map((m) => m[1] as string);
		expect(imported.length).toBeGreaterThan(0);
		for (const path of ["/app.js", "/style.css", ...imported]) {
			const reply = await rawGet(server.port, path);
			expect(reply.status, path).toBe(200);
			expect(reply.headers["content-security-policy"]).toContain("default-src 'none'");
		}
	});

	it("refuses anything but GET and HEAD", async () => {
		const status = await new Promise<number>((resolve, reject) => {
			const req = get(
				{ host: "127.0.0.1", port: server.port, path: "/api/sessions", method: "POST" },
				(res) => {
					res.resume();
					resolve(res.statusCode ?? 0);
				},
			);
			req.on("error", reject);
		});
		expect(status).toBe(405);
	});
});

describe("the command", () => {
	it("fails with exit 1 and the reason when the port is in use", async () => {
		await expect(
			startPreview({ ...paths, port: server.port, cwd: paths.sessions }),
		).rejects.toThrow(ContextError);
		let stderr = "";
		const code = await main(["preview", paths.sessions, "--port", String(server.port)], {
			stdout: () => {},
			stderr: (text) => {
				stderr += text;
			},
			cwd: paths.sessions,
		});
		expect(code).toBe(1);
		expect(stderr).toContain(`port ${server.port}`);
		expect(stderr).toContain("already in use");
	});

	it("refuses a port that is not one (exit 2)", async () => {
		for (const port of ["-1", "65536", "http", "1.5", ""]) {
			let stderr = "";
			const code = await main(["preview", "--port", port], {
				stdout: () => {},
				stderr: (text) => {
					stderr += text;
				},
				cwd: paths.sessions,
			});
			expect(code, port).toBe(2);
			expect(stderr).toContain("--port");
		}
	});

	it("a session folder made of a subfolder lists nested logs with ids relative to it", async () => {
		mkdirSync(join(paths.sessions, "nested"), { recursive: true });
		writeFileSync(
			join(paths.sessions, "nested", "x.jsonl"),
			readFileSync(join(paths.sessions, "1-normal.jsonl")),
		);
		server.catalog.rescan();
		expect(server.catalog.get("nested/x.jsonl")?.file).toBe(
			join(paths.sessions, "nested", "x.jsonl"),
		);
		expect((await view("nested/x.jsonl")).view.ok).toBe(true);
	});
});

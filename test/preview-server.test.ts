/**
 * The preview server without a browser: the Host check, requests that try to
 * reach files, unknown session ids, the event stream, template errors and
 * the working copy, session errors, paging, and a port already in use.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { ContextError } from "../src/errors.js";
import { loadTokenizerSync } from "../src/measure/tokenizer.js";
import type {
	FailedView,
	RenderedView,
	SessionsPayload,
	ViewPayload,
} from "../src/preview/protocol.js";
import { type PreviewServer, startPreview } from "../src/preview/server.js";
import { eventually, rawGet, scratch } from "./support/preview.js";

let server: PreviewServer;
let paths: { root: string; sessions: string; templates: string };

beforeAll(async () => {
	paths = scratch();
	server = await startPreview({ ...paths, port: 0, cwd: paths.root });
});
afterAll(() => server.close());

async function view(session: string, set = ""): Promise<{ status: number; view: ViewPayload }> {
	const query = new URLSearchParams({ session, set });
	const reply = await rawGet(server.port, `/api/view?${query}`);
	return { status: reply.status, view: JSON.parse(reply.body) as ViewPayload };
}

describe("who may ask", () => {
	it("binds 127.0.0.1 and prints its URL with the port it got", () => {
		expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
		expect(server.port).toBeGreaterThan(0);
	});

	it("answers localhost and 127.0.0.1 with its own port", async () => {
		for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
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

describe("rendering", () => {
	it("lists the sessions a page at a time, filtered", async () => {
		const page = async (query: string) =>
			JSON.parse((await rawGet(server.port, `/api/sessions?${query}`)).body) as SessionsPayload;
		const all = await page("offset=0&limit=500");
		expect(all.items.map((i) => i.id)).toContain("2-collapse-child.jsonl");
		const second = await page("offset=2&limit=2");
		expect(second.items).toEqual(all.items.slice(2, 4));
		const filtered = await page("q=COLLAPSE");
		expect(filtered.matched).toBe(all.items.filter((i) => i.id.includes("collapse")).length);
		expect(filtered.matched).toBeLessThan(filtered.total);
	});

	it("cuts the system prompt into its sections, each with its template's file and line", async () => {
		const { view: v } = await view("2-collapse-child.jsonl");
		const rendered = v as RenderedView;
		expect(rendered.systemPrompt.sections.map((s) => s.name)).toEqual([
			"harness",
			"tools",
			"environment",
			"lineage",
		]);
		for (const s of rendered.systemPrompt.sections) {
			expect(s.template.file).toBe(join("templates", "v1", `${s.name}.hbs`));
			const lines = readFileSync(join(paths.templates, "v1", `${s.name}.hbs`), "utf8").split("\n");
			expect(lines[(s.template.line as number) - 2]).toBe("---"); // the body starts after the front-matter
			expect(s.text.startsWith(`<${s.name}>`) && s.text.endsWith(`</${s.name}>`)).toBe(true);
		}
		const tokenizer = loadTokenizerSync("o200k");
		for (const s of rendered.systemPrompt.sections) expect(s.tokens).toBe(tokenizer.count(s.text));
		expect(rendered.systemPrompt.tokens).toBe(
			tokenizer.count(rendered.systemPrompt.sections.map((s) => s.text).join("\n")),
		);
		for (const m of rendered.messages) expect(m.tokens).toBe(tokenizer.count(m.text));
		const summary = rendered.messages[0];
		expect(summary?.kind).toBe("summary");
		expect(summary?.framing?.name).toBe("collapse-context");
	});

	it("shows a session that fails to load as its located error", async () => {
		const normal = readFileSync(join(paths.sessions, "1-normal.jsonl"), "utf8");
		// Entries without their header: an error in any reading mode.
		writeFileSync(join(paths.sessions, "broken.jsonl"), normal.slice(normal.indexOf("\n") + 1));
		server.catalog.rescan();
		const { status, view: v } = await view("broken.jsonl");
		expect(status).toBe(200);
		const failed = v as FailedView;
		expect(failed.ok).toBe(false);
		expect(failed.kind).toBe("session");
		expect(failed.diagnostics[0]?.file).toBe(join("sessions", "broken.jsonl"));
		expect(failed.diagnostics[0]?.line).toBe(1);
		expect(failed.diagnostics[0]?.message).toContain("header");
	});
});

describe("live", () => {
	it("streams a hello, then a change event when a template is saved", async () => {
		const events: string[] = [];
		const request = get({ host: "127.0.0.1", port: server.port, path: "/events" });
		const response = await new Promise<IncomingMessage>((resolve) =>
			request.on("response", resolve),
		);
		expect(response.statusCode).toBe(200);
		expect(response.headers["content-type"]).toContain("text/event-stream");
		response.setEncoding("utf8");
		response.on("data", (chunk: string) => events.push(chunk));
		const hello = await eventually(
			async () => events.join("").match(/event: hello\ndata: (.*)\n\n/) ?? undefined,
			"hello",
		);
		const before = JSON.parse(hello[1] as string).generation as number;
		const file = join(paths.templates, "v1", "environment.hbs");
		writeFileSync(
			file,
			readFileSync(file, "utf8").replace("Current working directory", "Working in"),
		);
		const change = await eventually(
			async () =>
				events
					.join("")
					.match(/event: change\ndata: (\{"generation":\d+,"what":"templates".*)\n\n/) ?? undefined,
			"a change event",
		);
		expect(JSON.parse(change[1] as string).generation).toBeGreaterThan(before);
		request.destroy();
	});

	it("renders the working copy unbumped, shows a broken template located, and recovers", async () => {
		const file = join(paths.templates, "v1", "tools.hbs");
		const good = readFileSync(file, "utf8");
		const marker = `Tool inventory ${Date.now()}`;
		writeFileSync(file, good.replace("{{#each toolGroups}}", `${marker}\n{{#each toolGroups}}`));
		const edited = await eventually(async () => {
			const { view: v } = await view("2-collapse-child.jsonl");
			return v.ok && v.systemPrompt.sections[1]?.text.includes(marker) ? v : undefined;
		}, "the edited text");
		expect(edited.set.version).toBe("v1"); // same version: never bumped, never locked

		writeFileSync(file, good.replace("{{#each toolGroups}}", "{{#each toolGrups}}"));
		const broken = await eventually(async () => {
			const { view: v } = await view("2-collapse-child.jsonl");
			return v.ok ? undefined : v;
		}, "the template error");
		expect(broken.kind).toBe("templates");
		const d = broken.diagnostics[0];
		const line = good.split("\n").findIndex((l) => l.includes("{{#each toolGroups}}")) + 1;
		expect(d?.file).toBe(join("templates", "v1", "tools.hbs"));
		expect(d?.line).toBe(line);
		expect(d?.column).toBeGreaterThan(0);
		expect(d?.message).toContain("toolGrups");
		expect(d?.frame).toContain("toolGrups");

		writeFileSync(file, good);
		await eventually(
			async () => ((await view("2-collapse-child.jsonl")).view.ok ? true : undefined),
			"recovery",
		);
	});
});

it("reports an append to a session, and renders what was appended", async () => {
	const events: string[] = [];
	const request = get({ host: "127.0.0.1", port: server.port, path: "/events" });
	const response = await new Promise<IncomingMessage>((resolve) => request.on("response", resolve));
	response.setEncoding("utf8");
	response.on("data", (chunk: string) => events.push(chunk));
	await eventually(
		async () => (events.join("").includes("event: hello") ? true : undefined),
		"hello",
	);
	const id = "1-normal.jsonl";
	const before = (await view(id)).view as RenderedView;
	const last = before.messages.at(-1)?.entryId as string;
	const text = `appended ${Date.now()}`;
	const line = {
		type: "message",
		id: "appended-1",
		parentId: last,
		timestamp: "2026-01-02T00:00:00.000Z",
		message: { role: "user", content: text, timestamp: 2 },
	};
	appendFileSync(join(paths.sessions, id), `${JSON.stringify(line)}\n`);
	await eventually(
		async () =>
			events.join("").includes(`"what":"sessions","sessions":["${id}"]`) ? true : undefined,
		"a sessions event",
	);
	const after = (await view(id)).view as RenderedView;
	expect(after.messages.length).toBe(before.messages.length + 1);
	expect(after.messages.at(-1)?.text).toBe(text);
	expect(after.messages.at(-1)?.entryId).toBe("appended-1");
	request.destroy();
});

it("follows a save of the categories.yaml beside the templates folder", async () => {
	const file = join(paths.root, "categories.yaml");
	const text = readFileSync(file, "utf8");
	const name = "Files";
	expect(text).toContain(`name: ${name}\n`);
	writeFileSync(file, text.replace(`name: ${name}\n`, "name: Workspace files\n"));
	const tools = await eventually(async () => {
		const { view: v } = await view("2-collapse-child.jsonl");
		const section = v.ok ? v.systemPrompt.sections.find((x) => x.name === "tools") : undefined;
		return section?.text.includes("Workspace files") === true ? section : undefined;
	}, "the renamed category");
	expect(tools.text).not.toContain(`- ${name}:`);
	writeFileSync(file, text);
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

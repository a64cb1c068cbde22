/**
 * The preview server without a browser, as the page uses it: sessions listed
 * a page at a time, a rendering cut into sections with their templates and
 * token counts, located errors for templates and sessions, and the event
 * stream following saves of templates, of categories.yaml and appends.
 */
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type {
	FailedView,
	RenderedView,
	SessionsPayload,
	SetsPayload,
} from "../../src/preview/protocol.js";
import { type PreviewServer, startPreview } from "../../src/preview/server.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import {
	brokenTemplate,
	eventually,
	getView,
	MISSING_FIELD,
	NEWEST,
	rawGet,
	scratch,
	withMarker,
} from "../support/preview.js";
import { ROOT } from "../support/template-sets.js";

let server: PreviewServer;
let paths: { root: string; sessions: string; templates: string };

beforeAll(async () => {
	paths = scratch();
	server = await startPreview({ ...paths, port: 0, cwd: paths.root });
});
afterAll(() => server.close());

const view = (session: string, set = "") => getView(server.port, session, set);

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
			expect(s.template.file).toBe(join("templates", NEWEST, `${s.name}.hbs`));
			const lines = readFileSync(join(paths.templates, NEWEST, `${s.name}.hbs`), "utf8").split(
				"\n",
			);
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

	it("gives a stubbed tool result its whole size and the tokens the stub saves", async () => {
		copyFileSync(
			join(ROOT, "test/fixtures/sessions/virtualized.jsonl"),
			join(paths.sessions, "virtualized.jsonl"),
		);
		const rendered = await eventually(async () => {
			const { view: v } = await view("virtualized.jsonl");
			return v.ok ? (v as RenderedView) : undefined;
		}, "the copied session in the list");
		const stubs = rendered.messages.filter((m) => m.virtualized !== undefined);
		expect(stubs.length).toBeGreaterThan(0);
		for (const m of stubs) {
			expect(m.framing?.name).toBe("tool-result-stub");
			expect(m.virtualized?.saved).toBe((m.virtualized?.tokens ?? 0) - m.tokens);
		}
		// A large text result is larger whole than its stub (one holding an image may not be).
		expect(stubs.some((m) => (m.virtualized?.chars ?? 0) > m.chars)).toBe(true);
		expect(
			rendered.messages
				.filter((m) => m.framing === undefined)
				.every((m) => m.virtualized === undefined),
		).toBe(true);
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

describe("the set picker", () => {
	it("offers the session's set and each set, marked against the lock", async () => {
		const sets = async () =>
			(JSON.parse((await rawGet(server.port, "/api/sets")).body) as SetsPayload).sets;
		const initial = await sets();
		expect(initial.map((s) => s.id)).toEqual(["", NEWEST]);
		expect(initial[1]?.label).toContain("not in lock.json");
		copyFileSync(join(ROOT, "templates", "lock.json"), join(paths.templates, "lock.json"));
		server.workspace.refresh();
		expect((await sets())[1]?.label).toContain("as locked");
		const file = join(paths.templates, NEWEST, "lineage.hbs");
		const text = readFileSync(file, "utf8");
		writeFileSync(file, `${text}\n`);
		server.workspace.refresh();
		expect((await sets())[1]?.label).toContain("edited since lock.json");
		const { view: v } = await view("2-collapse-child.jsonl", NEWEST);
		expect(v.ok && v.set.version).toBe(NEWEST);
		const unknown = await view("2-collapse-child.jsonl", "v9");
		expect(unknown.view.ok || unknown.view.kind).toBe("templates");
		writeFileSync(file, text);
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
		const file = join(paths.templates, NEWEST, "environment.hbs");
		writeFileSync(file, withMarker(readFileSync(file, "utf8"), "edited"));
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
		const file = join(paths.templates, NEWEST, "tools.hbs");
		const good = readFileSync(file, "utf8");
		const marker = `edited ${Date.now()}`;
		writeFileSync(file, withMarker(good, marker));
		const edited = await eventually(async () => {
			const { view: v } = await view("2-collapse-child.jsonl");
			return v.ok && v.systemPrompt.sections[1]?.text.includes(marker) ? v : undefined;
		}, "the edited text");
		expect(edited.set.version).toBe(NEWEST); // same version: never bumped, never locked

		const broken = brokenTemplate(good);
		writeFileSync(file, broken.text);
		const failed = await eventually(async () => {
			const { view: v } = await view("2-collapse-child.jsonl");
			return v.ok ? undefined : v;
		}, "the template error");
		expect(failed.kind).toBe("templates");
		const d = failed.diagnostics[0];
		expect(d?.file).toBe(join("templates", NEWEST, "tools.hbs"));
		expect(d?.line).toBe(broken.line);
		expect(d?.column).toBeGreaterThan(0);
		expect(d?.message).toContain(MISSING_FIELD);
		expect(d?.frame).toContain(`{{${MISSING_FIELD}}}`);

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

it("follows a save of the categories.yaml beside the templates folder, and of a set's own", async () => {
	const file = join(paths.root, "categories.yaml");
	const text = readFileSync(file, "utf8");
	const toolsText = async () => {
		const { view: v } = await view("2-collapse-child.jsonl");
		return v.ok ? v.systemPrompt.sections.find((x) => x.name === "tools")?.text : undefined;
	};
	const before = (await toolsText()) as string;
	const names = (parse(text) as { categories: { name: string }[] }).categories.map((c) => c.name);
	const name = names.find((n) => before.includes(n)) as string; // a category the session uses
	expect(name).toBeDefined();
	/** Saves `into` with the category renamed; the tools section follows it, and follows it back. */
	const follows = async (into: string, label: string, undo: () => void) => {
		writeFileSync(into, text.replace(`name: ${name}\n`, `name: ${label}\n`));
		const after = await eventually(
			async () => ((await toolsText())?.includes(label) === true ? toolsText() : undefined),
			`the category renamed in ${into}`,
		);
		expect(after).toBe(before.replace(name, label));
		undo();
		await eventually(
			async () => ((await toolsText()) === before ? true : undefined),
			`the categories as they were once ${into} is undone`,
		);
	};
	await follows(file, `Renamed ${Date.now()}`, () => writeFileSync(file, text));
	// A set's own categories.yaml wins over the shared one, and is followed too.
	const own = join(paths.templates, NEWEST, "categories.yaml");
	await follows(own, `Own ${Date.now()}`, () => rmSync(own));
});

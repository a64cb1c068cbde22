/**
 * The sidecar's methods past `load`, `close` and `shutdown`, and the load
 * params that ask what the library can: `virtualize: false` (every tool
 * result whole), `strict` (a damaged line fails the load), `version` (what a
 * client checks first), `reload` (edited, bumped and new sets reach the next
 * load; a broken folder leaves the sets in use), and warnings written to
 * stderr once per session however many loads find them.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTemplateSets } from "../../src/templates/load.js";
import { brokenTemplate, withMarker } from "../support/preview.js";
import { inProcess, ROOT } from "../support/serve.js";
import { HEADER, user, writeLog } from "../support/session.js";
import { bumped, templateSet, withVersion } from "../support/template-sets.js";
import { longText, toolCall, toolResult, virtualizingSet } from "../support/tool-results.js";

type Result = Record<string, unknown> & {
	messages: { role: string; content: unknown }[];
	meta: { virtualized: unknown[]; diagnostics: unknown[]; templateVersion: string };
	cursor: string;
	reset: boolean;
	systemPrompt?: string;
};

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

function withLargeResult(): string {
	return writeLog([
		HEADER,
		user("u1", null, "read it"),
		toolCall("a1", "u1", "c1"),
		toolResult("r1", "a1", "c1", longText(200)),
		user("u2", "r1", "thanks"),
	]);
}

describe("load: virtualize", () => {
	it("false sends every tool result whole; the default sends the large one as a stub", async () => {
		const path = withLargeResult();
		const { client } = inProcess({ templates: virtualizingSet() });
		const stubbed = (await client.call("load", { path })).result as Result;
		const whole = (await client.call("load", { path, virtualize: false })).result as Result;
		expect(stubbed.meta.virtualized.length).toBe(1);
		expect(whole.meta.virtualized).toEqual([]);
		const text = (r: Result) => JSON.stringify(r.messages.find((m) => m.role === "toolResult"));
		expect(text(whole)).toContain("line 200 of the output");
		expect(text(stubbed)).not.toContain("line 120 of the output");
	});

	it("a cursor of a virtualized reply does not continue into a whole one (reset)", async () => {
		const path = withLargeResult();
		const { client } = inProcess({ templates: virtualizingSet() });
		const first = (await client.call("load", { path })).result as Result;
		const same = (await client.call("load", { path, since: first.cursor })).result as Result;
		expect(same.reset).toBe(false);
		const whole = (await client.call("load", { path, since: same.cursor, virtualize: false }))
			.result as Result;
		expect(whole.reset).toBe(true);
		expect(whole.from).toBe(0);
	});

	it("refuses a virtualize that is not a boolean", async () => {
		const { client } = inProcess();
		const reply = await client.call("load", { path: withLargeResult(), virtualize: "no" });
		expect(reply.error?.code).toBe(-32602);
		expect(reply.error?.message).toContain('"virtualize"');
	});
});

describe("load: strict", () => {
	it("fails at a damaged line, located, where a lenient load warns and skips it", async () => {
		const path = writeLog(`${line(HEADER)}{not json\n${line(user("u1", null, "hi"))}`);
		const { client } = inProcess();
		const strict = await client.call("load", { path, strict: true });
		expect(strict.error?.code).toBe(-32001);
		expect(strict.error?.data).toMatchObject({ file: path, line: 2 });
		const lenient = (await client.call("load", { path })).result as Result;
		expect(lenient.messages.length).toBe(1);
		expect(lenient.meta.diagnostics.length).toBeGreaterThan(0);
	});
});

describe("version", () => {
	it("names the package version, the protocol, each method with its params, and the sets", async () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
		const templates = templateSet();
		const { client } = inProcess({ templates });
		const result = (await client.call("version")).result as {
			version: string;
			protocol: number;
			methods: Record<string, { params: string[]; required: string[] }>;
			templateVersions: string[];
			defaultTemplateVersion: string;
		};
		expect(result.version).toBe(pkg.version);
		expect(result.protocol).toBeGreaterThan(0);
		expect(Object.keys(result.methods).sort()).toEqual(
			["close", "load", "reload", "shutdown", "version"].sort(),
		);
		expect(result.methods.load?.params).toEqual(expect.arrayContaining(["virtualize", "strict"]));
		expect(result.methods.load?.required).toEqual(["path"]);
		expect(result.templateVersions).toEqual([...readTemplateSets(templates).keys()]);
		expect(result.defaultTemplateVersion).toBe(result.templateVersions.at(-1));
	});

	it("refuses params", async () => {
		const { client } = inProcess();
		expect((await client.call("version", { verbose: true })).error?.code).toBe(-32602);
	});
});

describe("reload", () => {
	const harness = (templates: string, version = "v1") => join(templates, version, "harness.hbs");

	it("without it, an edit is not seen; with it, the next load renders the edit", async () => {
		const templates = templateSet();
		const path = writeLog([HEADER, user("u1", null, "hi")]);
		const { client } = inProcess({ templates });
		const first = (await client.call("load", { path })).result as Result;
		const text = readFileSync(harness(templates), "utf8");
		writeFileSync(
			harness(templates),
			withVersion(withMarker(text, "EDITED-AFTER-START"), bumped("1")),
		);
		const stale = (await client.call("load", { path })).result as Result;
		expect(stale.systemPrompt).toBe(first.systemPrompt);
		const reload = (await client.call("reload")).result as {
			changed: string[];
			templateVersions: string[];
		};
		expect(reload.changed).toEqual(["v1"]);
		const after = (await client.call("load", { path, since: first.cursor })).result as Result;
		expect(after.reset).toBe(true); // another set fingerprint: the client starts again
		expect(after.systemPrompt).toContain("EDITED-AFTER-START");
	});

	it("makes a set added after start available, and lists it in version", async () => {
		const templates = templateSet();
		const path = writeLog([HEADER, user("u1", null, "hi")]);
		const { client } = inProcess({ templates });
		await client.call("load", { path });
		cpSync(join(templates, "v1"), join(templates, "v2"), { recursive: true });
		const before = await client.call("load", { path, templateVersion: "v2" });
		expect(before.error?.code).toBe(-32001);
		const reload = (await client.call("reload")).result as {
			changed: string[];
			templateVersions: string[];
		};
		expect(reload.templateVersions).toEqual(["v1", "v2"]);
		expect(reload.changed).toEqual(["v2"]);
		const after = (await client.call("load", { path })).result as Result;
		expect(after.meta.templateVersion).toBe("v2");
		const version = (await client.call("version")).result as { defaultTemplateVersion: string };
		expect(version.defaultTemplateVersion).toBe("v2");
	});

	it("a reload with nothing changed keeps cursors going", async () => {
		const templates = templateSet();
		const path = writeLog([HEADER, user("u1", null, "hi")]);
		const { client } = inProcess({ templates });
		const first = (await client.call("load", { path })).result as Result;
		expect(((await client.call("reload")).result as { changed: string[] }).changed).toEqual([]);
		appendFileSync(path, line(user("u2", "u1", "more")));
		const next = (await client.call("load", { path, since: first.cursor })).result as Result;
		expect(next.reset).toBe(false);
		expect(next.messages.length).toBe(1);
	});

	it("a folder that does not build is refused, located (-32002), and the sets in use stay", async () => {
		const templates = templateSet();
		const path = writeLog([HEADER, user("u1", null, "hi")]);
		const { client } = inProcess({ templates });
		const first = (await client.call("load", { path })).result as Result;
		const broken = brokenTemplate(readFileSync(harness(templates), "utf8"));
		writeFileSync(harness(templates), broken.text);
		const reload = await client.call("reload");
		expect(reload.error?.code).toBe(-32002);
		expect(reload.error?.data).toMatchObject({ file: harness(templates), line: broken.line });
		const after = (await client.call("load", { path })).result as Result;
		expect(after.systemPrompt).toBe(first.systemPrompt);
	});
});

describe("warnings on stderr", () => {
	it("are written once per session, however many loads find them", async () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			{ type: "mystery", id: "x1", parentId: "u1", timestamp: HEADER.timestamp },
		]);
		const { client, logs } = inProcess();
		const first = (await client.call("load", { path })).result as Result;
		const written = logs.length;
		expect(written).toBeGreaterThan(0);
		// Full loads (no cursor) list every warning in meta, but stderr already has them.
		const again = (await client.call("load", { path })).result as Result;
		expect(again.meta.diagnostics.length).toBe(first.meta.diagnostics.length);
		appendFileSync(path, line(user("u2", "x1", "more")));
		await client.call("load", { path, since: first.cursor });
		await client.call("load", { path });
		expect(logs.length).toBe(written);
		// A new warning is written, once.
		appendFileSync(path, "{torn\n");
		appendFileSync(path, line(user("u3", "u2", "again")));
		await client.call("load", { path });
		await client.call("load", { path });
		expect(logs.length).toBe(written + 1);
		// A closed session starts afresh.
		await client.call("close", { path });
		const reopened = (await client.call("load", { path })).result as Result;
		expect(logs.length).toBe(written + 1 + reopened.meta.diagnostics.length);
	});
});

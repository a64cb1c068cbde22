/**
 * Paths no other test reaches: a session pinned to an older template set,
 * `close()`, a kept-open file rewritten in place or deleted and recreated,
 * the compaction hint of the lean read, and a precompiled set gone stale.
 */
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContextService, convertToLlm, TemplateRegistry } from "../../src/index.js";
import { holdsCompactionTag } from "../../src/log/compaction-hint.js";
import { precompileTemplateSet } from "../../src/templates/compile.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { precompiledPath } from "../../src/templates/precompiled.js";
import { HEADER, metadata, user, writeLog } from "../support/session.js";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "theway-context-paths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The harness template's first line of plain text (no expression), whatever it says. */
function harnessLine(templates: string, set: string): string {
	const text = readFileSync(join(templates, set, "harness.hbs"), "utf8");
	const body = (text.split("---\n")[2] ?? "").split("\n");
	const line = body.find((l) => l.length > 20 && !l.includes("{{"));
	if (line === undefined) throw new Error("no plain line in harness.hbs");
	return line;
}

/** A templates folder with the bundled set as `v1` and a copy as `v2` whose harness says something else. */
function twoSets(): string {
	const root = mkdtempSync(join(dir, "templates-"));
	cpSync(join(ROOT, "templates/v1"), join(root, "v1"), { recursive: true });
	cpSync(join(ROOT, "templates/v1"), join(root, "v2"), { recursive: true });
	cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
	const harness = join(root, "v2", "harness.hbs");
	const text = readFileSync(harness, "utf8");
	const first = harnessLine(root, "v1");
	writeFileSync(harness, text.replace(first, `${first} (second set)`));
	return root;
}

describe("templateVersion", () => {
	const templates = twoSets();
	const v1 = harnessLine(templates, "v1");
	const v2 = harnessLine(templates, "v2");
	const pinned = writeLog([
		HEADER,
		metadata("m", null, { templateVersion: "v1" }),
		user("u", null, "hi"),
	]);
	const unpinned = writeLog([HEADER, user("u", null, "hi")]);

	it("renders a pinned session with its set, a new one with the newest", () => {
		expect(v2).not.toBe(v1);
		const service = new ContextService({ templates });
		const old = service.loadSync(pinned);
		expect(old.meta.templateVersion).toBe("v1");
		expect(old.systemPrompt).toContain(v1);
		expect(old.systemPrompt).not.toContain(v2);
		const fresh = service.loadSync(unpinned);
		expect(fresh.meta.templateVersion).toBe("v2");
		expect(fresh.systemPrompt).toContain(v2);
		expect(fresh.meta.templateFingerprint).not.toBe(old.meta.templateFingerprint);
	});

	it("lets the caller's templateVersion win over the pin", () => {
		const bundle = new ContextService({ templates }).loadSync(pinned, { templateVersion: "v2" });
		expect(bundle.meta.templateVersion).toBe("v2");
		expect(bundle.systemPrompt).toContain(v2);
	});

	it("converts a bundle with the set that rendered it", () => {
		const bundle = new ContextService({ templates }).loadSync(pinned);
		expect(convertToLlm(bundle, { templates })).toEqual(
			new ContextService({ templates }).convertToLlm(bundle),
		);
	});
});

describe("a kept-open session", () => {
	const header = `${JSON.stringify(HEADER)}\n`;
	/** Two entries; rewriting the first keeps the length and the last bytes of the file. */
	const log = (first: string) =>
		`${header}{"type":"message","id":"u1","parentId":null,"timestamp":"t","message":{"role":"user","content":"${first}"}}\n${"{"}"type":"message","id":"u2","parentId":"u1","timestamp":"t","message":{"role":"user","content":"the same last line, longer than the bytes compared on reload"}}\n`;

	it("close() forgets it: the next load reads the file as it is now", () => {
		const path = join(dir, "closed.jsonl");
		writeFileSync(path, log("first"));
		const service = new ContextService();
		expect(service.loadSync(path).messages[0]).toMatchObject({ content: "first" });
		writeFileSync(path, log("other"));
		service.close(path);
		expect(service.loadSync(path).messages[0]).toMatchObject({ content: "other" });
	});

	it("sees a file rewritten in place with the same length and the same end", () => {
		const path = join(dir, "rewritten.jsonl");
		writeFileSync(path, log("first"));
		const service = new ContextService();
		service.loadSync(path);
		writeFileSync(path, log("other"));
		expect(service.loadSync(path).messages[0]).toMatchObject({ content: "other" });
	});

	it("sees a file deleted and recreated with the same length and the same end", () => {
		const path = join(dir, "recreated.jsonl");
		writeFileSync(path, log("first"));
		const service = new ContextService();
		service.loadSync(path);
		unlinkSync(path);
		writeFileSync(path, log("other"));
		expect(service.loadSync(path).messages[0]).toMatchObject({ content: "other" });
	});
});

describe("the lean read's compaction hint", () => {
	const line = (json: string) => Buffer.from(`${JSON.stringify(HEADER)}\n${json}\n`);

	it("finds a compaction, whatever the JSON spacing", () => {
		expect(holdsCompactionTag(line('{"type":"compaction","id":"k"}'))).toBe(true);
		expect(holdsCompactionTag(line('{"type" : "compaction", "id": "k"}'))).toBe(true);
		expect(holdsCompactionTag(line('{\t"type":\t"compaction"}'))).toBe(true);
	});

	it("finds none where there is none", () => {
		expect(holdsCompactionTag(line('{"type":"message","summary":"type compaction"}'))).toBe(false);
		expect(holdsCompactionTag(line('{"kind":"compaction"}'))).toBe(false);
	});
});

describe("a precompiled set gone stale", () => {
	it("is ignored: the set is compiled from its changed sources", () => {
		const root = mkdtempSync(join(dir, "stale-"));
		cpSync(join(ROOT, "templates/v1"), join(root, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
		const source = readTemplateSets(root).get("v1");
		if (source === undefined) throw new Error("no v1 set");
		const module = precompiledPath(root, "v1");
		mkdirSync(join(module, ".."), { recursive: true });
		writeFileSync(module, precompileTemplateSet(source));
		const log = writeLog([HEADER, user("u", null, "hi")]);
		const before = new ContextService({
			registry: new TemplateRegistry(root, { precompiled: true }),
		}).loadSync(log);
		// The sources change after the build: the module no longer matches them.
		const first = harnessLine(root, "v1");
		const harness = join(root, "v1", "harness.hbs");
		writeFileSync(harness, readFileSync(harness, "utf8").replace(first, `${first} (edited)`));
		const after = new ContextService({
			registry: new TemplateRegistry(root, { precompiled: true }),
		}).loadSync(log);
		expect(before.systemPrompt).not.toContain(`${first} (edited)`);
		expect(after.systemPrompt).toContain(`${first} (edited)`);
		expect(after.meta.templateFingerprint).not.toBe(before.meta.templateFingerprint);
	});
});

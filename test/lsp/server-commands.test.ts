/**
 * The language server over stdio, driven as an editor drives it: definition,
 * document symbols, the render command, a watched file's change, a malformed
 * message and an unknown method, shutdown and exit; and the command's usage.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { bumped, versionOf, withVersion } from "../support/template-sets.js";
import { type LspClient, startOnCopy, uriOf } from "./client.js";

let lsp: LspClient;
let root: string;
let fixtures: string;
let file: (name: string) => string;
let text: (name: string) => string;

beforeAll(async () => {
	({ lsp, root, fixtures, file, text } = await startOnCopy());
}, 60_000);

afterAll(async () => {
	await lsp?.close();
});

describe("lsp command line", () => {
	it("needs --stdio, and prints its usage with --help", async () => {
		const missing = await runCli(["lsp"]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("--stdio is required");
		const help = await runCli(["lsp", "--help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain("theway-context lsp --stdio");
	});
});

describe("lsp navigation and commands", () => {
	it("goes to a partial's definition and lists the skeleton's sections", async () => {
		const skeleton = text("system");
		lsp.open(file("system"), skeleton);
		const lines = skeleton.split("\n");
		const line = lines.findIndex((l) => l.includes("{{> tools}}"));
		const def = (await lsp.connection.sendRequest("textDocument/definition", {
			textDocument: { uri: uriOf(file("system")) },
			position: { line, character: lines[line]?.indexOf("tools") ?? 0 },
		})) as { uri: string };
		expect(def.uri).toBe(uriOf(file("tools")));
		const symbols = (await lsp.connection.sendRequest("textDocument/documentSymbol", {
			textDocument: { uri: uriOf(file("system")) },
		})) as { name: string; children?: { name: string }[] }[];
		const names = JSON.stringify(symbols);
		for (const s of ["harness", "tools", "environment", "lineage"])
			expect(names).toContain(`section ${s}`);
		expect(symbols.find((s) => s.name === "section harness")?.children?.[0]?.name).toBe(
			"> harness",
		);
	});

	it("renders a template's section for a fixture, from the unsaved text", async () => {
		const edited = `${text("tools")}\nUNSAVED-LINE\n`;
		lsp.open(file("tools"), edited);
		const result = (await lsp.connection.sendRequest("workspace/executeCommand", {
			command: "theway-context.render",
			arguments: [{ uri: uriOf(file("tools")), fixture: join(fixtures, "1-normal.jsonl") }],
		})) as { text: string; template: string };
		expect(result.template).toBe("tools");
		expect(result.text.startsWith("<tools>")).toBe(true);
		expect(result.text.endsWith("</tools>")).toBe(true);
		expect(result.text).toContain("UNSAVED-LINE");
		lsp.change(file("tools"), text("tools"), 2);
	});

	it("picks up a watched file's change: categories.yaml changed without a bump of tools", async () => {
		const categories = join(root, "categories.yaml");
		const before = readFileSync(categories, "utf8");
		writeFileSync(categories, `${before}  - name: Extra\n    tools: [extra_tool]\n`);
		const seen = lsp.diagnostics(categories, (ds) => ds.length > 0);
		await lsp.connection.sendNotification("workspace/didChangeWatchedFiles", {
			changes: [{ uri: uriOf(categories), type: 2 }],
		});
		expect((await seen).map((d) => d.code)).toEqual(["version_not_bumped"]);
		// Bumping tools (unsaved) answers it: the error leaves categories.yaml.
		const cleared = lsp.diagnostics(categories, (ds) => ds.length === 0);
		lsp.change(file("tools"), withVersion(text("tools"), bumped(versionOf(text("tools")))), 3);
		await cleared;
		writeFileSync(categories, before);
		lsp.change(file("tools"), text("tools"), 4);
	});
});

describe("lsp lock", () => {
	it("picks up a lock changed on disk: a text the lock records otherwise, under the same version", async () => {
		const lockFile = join(root, "lock.json");
		const before = readFileSync(lockFile, "utf8");
		const lock = JSON.parse(before) as {
			sets: Record<string, { templates: Record<string, { sha256: string }> }>;
		};
		const tools = lock.sets.v1?.templates.tools;
		if (tools === undefined) throw new Error("no tools in the lock");
		tools.sha256 = "0".repeat(64);
		writeFileSync(lockFile, JSON.stringify(lock));
		const seen = lsp.diagnostics(file("tools"), (ds) => ds.length > 0);
		await lsp.connection.sendNotification("workspace/didChangeWatchedFiles", {
			changes: [{ uri: uriOf(lockFile), type: 2 }],
		});
		expect((await seen).map((d) => d.code)).toEqual(["version_not_bumped"]);
		writeFileSync(lockFile, before);
		const cleared = lsp.diagnostics(file("tools"), (ds) => ds.length === 0);
		await lsp.connection.sendNotification("workspace/didChangeWatchedFiles", {
			changes: [{ uri: uriOf(lockFile), type: 2 }],
		});
		await cleared;
	});
});

describe("lsp fixtures", () => {
	it("lists the fixture sessions, and picks up a new one", async () => {
		const list = async () =>
			(
				(await lsp.connection.sendRequest("workspace/executeCommand", {
					command: "theway-context.fixtures",
					arguments: [{ uri: uriOf(file("tools")) }],
				})) as { fixtures: string[] }
			).fixtures;
		expect(await list()).toEqual([join(fixtures, "1-normal.jsonl")]);
		const added = join(fixtures, "2-copy.jsonl");
		copyFileSync(join(fixtures, "1-normal.jsonl"), added);
		await lsp.connection.sendNotification("workspace/didChangeWatchedFiles", {
			changes: [{ uri: uriOf(added), type: 1 }],
		});
		expect(await list()).toEqual([join(fixtures, "1-normal.jsonl"), added]);
	});
});

describe("lsp robustness", () => {
	it("answers an unknown method with an error and a malformed message with nothing, and serves on", async () => {
		await expect(lsp.connection.sendRequest("theway/unknown", {})).rejects.toMatchObject({
			code: -32601,
		});
		lsp.child.stdin.write("Content-Length: 9\r\n\r\n{not json");
		lsp.child.stdin.write("Content-Length: 2\r\n\r\n[]");
		const symbols = await lsp.connection.sendRequest("textDocument/documentSymbol", {
			textDocument: { uri: uriOf(file("system")) },
		});
		expect(Array.isArray(symbols)).toBe(true);
		expect(lsp.child.exitCode).toBeNull();
	});

	it("shuts down and exits with 0", async () => {
		await lsp.connection.sendRequest("shutdown");
		await lsp.connection.sendNotification("exit");
		expect(await lsp.exited).toBe(0);
	});
});

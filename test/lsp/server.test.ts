/**
 * The language server over stdio, driven as an editor drives it (a copy of
 * the newest bundled set with its own lock, one fixture, documents opened
 * and edited in memory): diagnostics, completion and hover.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endOf, type LspClient, startOnCopy, uriOf } from "./client.js";

let lsp: LspClient;
let file: (name: string) => string;
let text: (name: string) => string;

beforeAll(async () => {
	const started = await startOnCopy();
	({ lsp, file, text } = started);
	expect(started.capabilities).toMatchObject({
		completionProvider: {},
		hoverProvider: true,
		definitionProvider: true,
		documentSymbolProvider: true,
		executeCommandProvider: { commands: expect.arrayContaining(["theway-context.render"]) },
	});
}, 60_000);

afterAll(async () => {
	await lsp?.close();
});

describe("lsp diagnostics", () => {
	it("reports an unknown path at its range, with its code, and clears it once fixed", async () => {
		const original = text("harness");
		const broken = `${original}\n{{harness.introductoin}}`;
		const seen = lsp.diagnostics(file("harness"), (ds) => ds.length > 0);
		lsp.open(file("harness"), broken);
		const ds = await seen;
		const typo = ds.find((d) => d.code === "template_type");
		const line = broken.split("\n").length - 1;
		expect(typo?.range).toEqual({
			start: { line, character: 2 },
			end: { line, character: 2 + "harness.introductoin".length },
		});
		expect(typo?.message).toContain('did you mean "introduction"');
		// The text changed under the same version: the lock says so, as build does.
		expect(ds.map((d) => d.code)).toContain("version_not_bumped");

		const cleared = lsp.diagnostics(file("harness"), (d) => d.length === 0);
		lsp.change(file("harness"), original, 2);
		expect(await cleared).toEqual([]);
	});

	it("keeps each template's errors: one broken template never hides another's", async () => {
		const harness = lsp.diagnostics(file("harness"), (ds) => ds.length > 0);
		lsp.change(file("harness"), `${text("harness")}\n{{nosuchhelper 1}}`, 3);
		expect((await harness).map((d) => d.code)).toContain("unknown_helper");
		const both = lsp.diagnostics(file("tools"), (ds) => ds.some((d) => d.code === "template_type"));
		lsp.open(file("tools"), `${text("tools")}\n{{toolGroups.nope}}`);
		await both;
		const last = lsp.published.filter((p) => p.uri === uriOf(file("harness"))).at(-1);
		expect(last?.diagnostics.map((d) => d.code)).toContain("unknown_helper");
		const cleared = lsp.diagnostics(file("tools"), (d) => d.length === 0);
		lsp.change(file("tools"), text("tools"), 2);
		lsp.change(file("harness"), text("harness"), 4);
		await cleared;
	});

	it("reports a budget over its limit on the fixtures at the budget's line", async () => {
		const original = text("harness");
		const withBudget = original.replace(/^version:/m, "budget:\n  tokens: 1\nversion:");
		const over = lsp.diagnostics(file("harness"), (ds) => ds.some((d) => d.code === "over_budget"));
		lsp.change(file("harness"), withBudget, 5);
		const d = (await over).find((x) => x.code === "over_budget");
		expect(d?.range.start.line).toBe(withBudget.split("\n").indexOf("  tokens: 1"));
		expect(d?.message).toContain("1-normal.jsonl");
		const cleared = lsp.diagnostics(file("harness"), (ds) => ds.length === 0);
		lsp.change(file("harness"), original, 6);
		await cleared;
	});
});

describe("lsp completion and hover", () => {
	it("completes the segment after {{harness.", async () => {
		const edited = `${text("harness")}\n{{harness.`;
		lsp.change(file("harness"), edited, 7);
		const items = (await lsp.connection.sendRequest("textDocument/completion", {
			textDocument: { uri: uriOf(file("harness")) },
			position: endOf(edited),
		})) as { label: string; detail?: string; documentation?: { value: string } }[];
		expect(items.map((i) => i.label)).toEqual(["introduction"]);
		expect(items[0]?.detail).toBe("string | undefined");
		expect(items[0]?.documentation?.value.length).toBeGreaterThan(0); // the schema's description
	});

	it("completes the front-matter keys not yet written, and the helpers with their signatures", async () => {
		const original = text("harness");
		const edited = original.replace(/^version:/m, "\nversion:");
		lsp.change(file("harness"), edited, 10);
		const line = edited.split("\n").indexOf("");
		const keys = (await lsp.connection.sendRequest("textDocument/completion", {
			textDocument: { uri: uriOf(file("harness")) },
			position: { line, character: 0 },
		})) as { label: string }[];
		expect(keys.map((k) => k.label)).toContain("budget");
		expect(keys.map((k) => k.label)).not.toContain("name");
		const call = `${original}\n{{jo`;
		lsp.change(file("harness"), call, 11);
		const helpers = (await lsp.connection.sendRequest("textDocument/completion", {
			textDocument: { uri: uriOf(file("harness")) },
			position: endOf(call),
		})) as { label: string; detail?: string }[];
		expect(helpers.find((h) => h.label === "join")?.detail).toMatch(
			/^join string\[\] \[string\] → string$/,
		);
	});

	it("completes only the front-matter keys the build lets the template declare", async () => {
		const keys = async (name: string, edited: string, version: number) => {
			if (version === 1) lsp.open(file(name), edited);
			else lsp.change(file(name), edited, version);
			const items = (await lsp.connection.sendRequest("textDocument/completion", {
				textDocument: { uri: uriOf(file(name)) },
				position: { line: edited.split("\n").indexOf(""), character: 0 },
			})) as { label: string }[];
			return items.map((i) => i.label);
		};
		const blank = (name: string) => text(name).replace(/^version:/m, "\nversion:");
		const tools = await keys("tools", blank("tools"), 20);
		expect(tools).toEqual(expect.arrayContaining(["marker", "budget"]));
		expect(tools).not.toContain("virtualize"); // the build refuses it outside the stub
		const stub = text("tool-result-stub").replace(/^virtualize:\n(?:[ \t].*\n)*/m, "\n");
		expect(await keys("tool-result-stub", stub, 1)).toContain("virtualize");
		lsp.change(file("tools"), text("tools"), 21);
	});

	it("completes inside {{#each toolGroups}}: the element's fields, block params and ../", async () => {
		const complete = async (suffix: string) => {
			const edited = `${text("tools")}\n${suffix}`;
			lsp.change(file("tools"), edited, 3);
			const items = (await lsp.connection.sendRequest("textDocument/completion", {
				textDocument: { uri: uriOf(file("tools")) },
				position: endOf(edited),
			})) as { label: string; kind?: number }[];
			return items.map((i) => i.label);
		};
		const inside = await complete("{{#each toolGroups}}{{");
		expect(inside).toEqual(expect.arrayContaining(["name", "tools", "join"]));
		expect(inside).not.toContain("toolGroups");
		expect(await complete("{{#each toolGroups as |group|}}{{group.")).toEqual(["name", "tools"]);
		expect(await complete("{{#each toolGroups}}{{../")).toEqual(
			expect.arrayContaining(["harness", "toolGroups", "environment"]),
		);
		expect(await complete("{{#each toolGroups}}{{/each}}{{> ")).toContain("harness");
		lsp.change(file("tools"), text("tools"), 4);
	});

	it("hovers a guard's own argument as optional, and a guarded path with no guard advice", async () => {
		let version = 0;
		const hoverAt = async (suffix: string, needle: string) => {
			const edited = `${text("environment")}\n${suffix}`;
			if (version++ === 0) lsp.open(file("environment"), edited);
			else lsp.change(file("environment"), edited, version);
			const hover = (await lsp.connection.sendRequest("textDocument/hover", {
				textDocument: { uri: uriOf(file("environment")) },
				position: endOf(edited.slice(0, edited.lastIndexOf(needle) + 1)),
			})) as { contents: { value: string } };
			return hover.contents.value;
		};
		const bare = await hoverAt("{{environment.memory}}", "memory");
		const description = bare.split("\n\n")[1] as string;
		expect(bare).toContain("guard it with `{{#if environment.memory}}`");
		const condition = await hoverAt("{{#if environment.memory}}x{{/if}}", "memory}}x");
		expect(condition).toContain("`environment.memory`: string | undefined");
		expect(condition).toContain(description);
		expect(condition).toContain("Optional: this `#if` tests");
		expect(condition).not.toContain("guard it");
		for (const guarded of [
			"{{#unless environment.memory}}x{{else}}{{environment.memory}}{{/unless}}",
			"{{#if environment.cwd}}x{{else if environment.memory}}{{environment.memory}}{{/if}}",
		]) {
			const inside = await hoverAt(guarded, "memory}}{{/");
			expect(inside).toContain("`environment.memory`: string\n");
			expect(inside).not.toContain("guard it");
		}
	});

	it("hovers a path with its type and guard, and a front-matter key with the template's size", async () => {
		const edited = `${text("harness")}\n{{harness.introduction}}`;
		lsp.change(file("harness"), edited, 12);
		const at = endOf(edited);
		const hover = (await lsp.connection.sendRequest("textDocument/hover", {
			textDocument: { uri: uriOf(file("harness")) },
			position: { line: at.line, character: at.character - 4 },
		})) as { contents: { value: string } };
		expect(hover.contents.value).toContain("`harness.introduction`: string | undefined");
		expect(hover.contents.value).toContain("{{#if harness.introduction}}");
		lsp.change(file("harness"), text("harness"), 13);
		// The fixtures are measured once typing pauses: ask until the size is there.
		let size = { contents: { value: "" } };
		for (let i = 0; i < 200 && !size.contents.value.includes("tokens"); i++) {
			await new Promise((done) => setTimeout(done, 100));
			size = (await lsp.connection.sendRequest("textDocument/hover", {
				textDocument: { uri: uriOf(file("harness")) },
				position: { line: 1, character: 1 },
			})) as { contents: { value: string } };
		}
		expect(size.contents.value).toMatch(
			/up to \*\*\d+ tokens\*\* \([\w.-]+~?\), in .*1-normal\.jsonl/,
		);
	});
});

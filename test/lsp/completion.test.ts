/**
 * Completion and hover in process, on a copy of the newest bundled set: the
 * scope at the cursor through `#with`, `#each`'s else branch, nested blocks
 * and partials (which see their caller's context); a path's hover under a
 * guard; document symbols and partial definitions; a templates folder found
 * from a file upward.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { complete } from "../../src/lsp/completion.js";
import { hover } from "../../src/lsp/hover.js";
import { definition, documentSymbols } from "../../src/lsp/symbols.js";
import { findTemplatesRoot, TemplatesFolder } from "../../src/lsp/workspace.js";
import { tempDir } from "../support/temp.js";
import { templateSet } from "../support/template-sets.js";

const root = templateSet();
const file = (name: string) => join(root, "v1", `${name}.hbs`);

/** The set with `name`'s text replaced by its own plus `suffix`, and the document at its end. */
function at(name: string, suffix: string) {
	const overlay = new Map<string, string>();
	const folder = new TemplatesFolder(root, overlay);
	const original = folder.sets().get("v1")?.templates.get(name)?.text ?? "";
	const text = `${original}\n${suffix}`;
	overlay.set(file(name), text);
	const texts = folder.sets().get("v1")?.templates ?? new Map();
	const document = TextDocument.create(pathToFileURL(file(name)).href, "handlebars", 1, text);
	return { texts, document, offset: text.length };
}

const labels = (name: string, suffix: string) => {
	const { texts, document, offset } = at(name, suffix);
	return complete(texts, name, document, offset).map((i) => i.label);
};

describe("lsp completion scope", () => {
	it("follows #with, the else branch of #each, nested blocks and block params", () => {
		expect(labels("environment", "{{#with environment}}{{")).toEqual(
			expect.arrayContaining(["cwd", "memory"]),
		);
		expect(labels("tools", "{{#each toolGroups}}{{else}}{{")).toContain("toolGroups");
		expect(labels("tools", "{{#each toolGroups as |g i|}}{{#each g.tools}}{{../")).toEqual([
			"name",
			"tools",
		]);
		expect(labels("tools", "{{#each toolGroups as |g i|}}{{#if g}}{{")).toEqual(
			expect.arrayContaining(["g", "i", "name"]),
		);
		expect(labels("tools", "{{#each toolGroups}}{{@")).toEqual(
			expect.arrayContaining(["index", "first", "last", "root"]),
		);
		expect(labels("tools", "{{@")).toEqual(["root"]);
		expect(labels("tools", "{{@root.")).toContain("toolGroups");
		expect(labels("tools", "{{#each toolGroups}}{{#if name}}x{{/")).toEqual(["if"]);
		expect(labels("tools", "{{#each toolGroups}}x{{else if toolGroups}}y{{/")).toEqual(["each"]);
	});

	it("gives a partial its caller's context", () => {
		// harness is called by the skeleton with the system view.
		expect(labels("harness", "{{")).toEqual(expect.arrayContaining(["harness", "toolGroups"]));
		expect(labels("harness", "{{> ")).toContain("tools");
		expect(labels("harness", "{{> ")).not.toContain("harness");
	});

	it("hovers a guarded path as present, and an unguarded one as absent", () => {
		const sizes = { largest: undefined, show: (f: string) => f };
		const guarded = at("environment", "{{#if environment.memory}}{{environment.memory}}{{/if}}");
		const inner = guarded.document.getText().lastIndexOf("memory}}") + 1;
		const shown = hover(guarded.texts, "environment", guarded.document, inner, sizes);
		const first = JSON.stringify(shown?.contents).split("\\n")[0];
		expect(first).toContain("`environment.memory`: string");
		expect(first).not.toContain("undefined");
		const bare = at("environment", "{{environment.memory}}");
		const value = hover(bare.texts, "environment", bare.document, bare.offset - 4, sizes);
		expect(JSON.stringify(value?.contents)).toContain("string | undefined");
	});
});

describe("lsp outline and folders", () => {
	it("nests the skeleton's partial calls in its sections and links them to their files", () => {
		const { texts, document } = at("system", "");
		const symbols = documentSymbols(document, file("system"));
		const sections = symbols.filter((s) => s.name.startsWith("section "));
		expect(sections.map((s) => s.children?.[0]?.name)).toEqual([
			"> harness",
			"> tools",
			"> environment",
		]);
		const text = document.getText();
		const target = definition(texts, document, text.indexOf("{{> environment}}") + 5);
		expect(target?.uri).toBe(pathToFileURL(file("environment")).href);
	});

	it("finds the templates folder from a file upward, and none for an unrelated .hbs", () => {
		expect(findTemplatesRoot(file("harness"))).toBe(root);
		expect(findTemplatesRoot(join(tempDir(), "page.hbs"))).toBeUndefined();
	});
});

/**
 * The editor's checks are the build step's: for sets broken in many ways,
 * checked one after the other (so that unchanged files and bodies come from
 * the parse caches), the server's findings equal a fresh `checkTemplateSet`.
 * And a finding's range covers the token or the statement it points at.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ContextError, type Diagnostic } from "../../src/errors.js";
import { checkSet, rangeOf } from "../../src/lsp/diagnostics.js";
import { Publisher } from "../../src/lsp/publish.js";
import { TemplatesFolder } from "../../src/lsp/workspace.js";
import { checkTemplateSet, type TemplateSetSource } from "../../src/templates/compile.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { editLastLine, templateSet } from "../support/template-sets.js";

function fresh(source: TemplateSetSource): Diagnostic[] {
	try {
		checkTemplateSet(source);
		return [];
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		return [...error.diagnostics];
	}
}

function withText(source: TemplateSetSource, name: string, edit: (text: string) => string) {
	const templates = new Map(source.templates);
	const t = templates.get(name);
	if (t === undefined) throw new Error(`no ${name}`);
	templates.set(name, { file: t.file, text: edit(t.text) });
	return { ...source, templates };
}

const EDITS: [string, (text: string) => string][] = [
	["harness", (t) => editLastLine(t, "{{harness.introductoin}}")],
	["harness", (t) => editLastLine(t, '{{#"if" harness.introduction}}x{{/"if"}}')],
	["tools", (t) => editLastLine(t, "{{#each toolGroups}}{{join name}}{{/each}}")],
	["system", (t) => t.replace(/<\/tools>\n/, "")],
	["system", (t) => t.replace(/^description:.*$/m, "descriptio: x")],
	["environment", (t) => editLastLine(t, "{{> nosuch}}")],
	["environment", (t) => editLastLine(t, "{{")],
	["tools", (t) => t],
	["lineage", (t) => editLastLine(t, "{{#with lineage as |l|}}{{l.nodeId}}{{/with}}")],
];

describe("lsp checks", () => {
	it("equal the build step's check, edit after edit, from warm parse caches", () => {
		const source = [...readTemplateSets(templateSet()).values()][0] as TemplateSetSource;
		const codes = new Set<string>();
		for (const round of [0, 1]) {
			for (const [i, [name, edit]] of EDITS.entries()) {
				const edited = withText(source, name, (t) => `${edit(t)}${"\n".repeat(round)}`);
				const expected = fresh(edited);
				expect(checkSet(edited), `edit ${i}, round ${round}`).toEqual(expected);
				for (const d of expected) codes.add(d.code);
			}
		}
		for (const extra of ["bogus: [", "other: 3", ""]) {
			const categories = { ...source.categories, text: `${source.categories.text}\n${extra}` };
			const edited = { ...source, categories };
			const expected = fresh(edited);
			expect(checkSet(edited), `categories + ${extra}`).toEqual(expected);
			for (const d of expected) codes.add(d.code);
		}
		expect([...codes].sort()).toEqual([
			"bad_categories",
			"bad_front_matter",
			"bad_template",
			"section_order",
			"template_type",
			"unknown_partial",
		]);
		expect(checkSet(source)).toEqual([]);
	});

	it("range a finding over its token, or over its whole {{…}} statement", () => {
		const text = "a\n  {{> nosuch x}} tail\n{{harness.introductoin}}!";
		expect(rangeOf(text, 2, 3)).toEqual({
			start: { line: 1, character: 2 },
			end: { line: 1, character: 16 },
		});
		expect(rangeOf(text, 3, 3)).toEqual({
			start: { line: 2, character: 2 },
			end: { line: 2, character: 22 },
		});
		expect(rangeOf(text, 1)).toEqual({
			start: { line: 0, character: 0 },
			end: { line: 0, character: 1 },
		});
	});
});

describe("lsp publishing", () => {
	it("warns on a template in a folder that is not a set, as build does, and nothing on the sound set's files", () => {
		const root = templateSet();
		mkdirSync(join(root, "v1-wip"));
		const draft = join(root, "v1-wip", "harness.hbs");
		writeFileSync(draft, "---\n");
		const published = new Map<string, { code?: string | number | undefined }[]>();
		const publisher = new Publisher({
			publish: (uri, ds) => published.set(uri, ds),
			openText: () => undefined,
			fixtures: () => [],
			log: (message) => {
				throw new Error(message);
			},
		});
		publisher.touch(new TemplatesFolder(root, new Map()), draft);
		publisher.flush();
		expect(published.get(pathToFileURL(draft).href)?.map((d) => d.code)).toEqual([
			"ignored_folder",
		]);
		expect(published.get(pathToFileURL(join(root, "v1", "harness.hbs")).href)).toBeUndefined();
	});
});

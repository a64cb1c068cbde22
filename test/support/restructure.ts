/**
 * A structural edit of a template set, the kind a prompt engineer makes:
 * the second half of the harness moved into a new partial it calls, a line
 * added at the top of each section, a guarded line added, a category
 * added to the set's own `categories.yaml` (made its own first when it used
 * a shared one, as `new-set` does), every changed template bumped. Written against what the compiler fixes (the section
 * names, the view-model) and never against a set's wording, so it applies
 * to whatever set is the newest; the tests must hold on its result.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseDocument } from "yaml";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { bumped, versionOf, withVersion } from "./template-sets.js";

/** The sections the compiler requires, each its own template. */
const SECTIONS = ["harness", "tools", "environment", "lineage"] as const;

/** What the edit adds, to find it again in a rendering. */
export const ADDED = {
	/** The first line of each section. */
	heading: (section: string) => `(${section}, restructured)`,
	/** A line shown only when the session has a memory. */
	guarded: "(the memory above is the session's own)",
	/** The category added first to the set's own categories. */
	category: "(restructured)",
} as const;

/** The partial the harness's second half moves into (a name the set does not use yet). */
export function partialName(set: string): string {
	let name = "rules";
	for (let i = 2; existsSync(join(set, `${name}.hbs`)); i++) name = `rules-${i}`;
	return name;
}

/** Restructures the set in folder `set` in place; returns the new partial's name. */
export function restructure(set: string): string {
	const rules = partialName(set);
	const harness = join(set, "harness.hbs");
	const { head, body } = split(readFileSync(harness, "utf8"));
	const lines = body.split("\n");
	const cut = topLevelCut(lines);
	const tail = lines.slice(cut).join("\n");
	writeFileSync(
		join(set, `${rules}.hbs`),
		`---\nname: ${rules}\nversion: "1.0.0"\ndescription: The harness's second half.\n---\n${tail.endsWith("\n") ? tail : `${tail}\n`}`,
	);
	writeFileSync(harness, `${head}${[...lines.slice(0, cut), `{{> ${rules}}}`].join("\n")}\n`);
	for (const section of SECTIONS) {
		const file = join(set, `${section}.hbs`);
		const text = readFileSync(file, "utf8");
		const parts = split(text);
		let edited = `${parts.head}${ADDED.heading(section)}\n${parts.body}`;
		if (section === "environment") {
			edited = `${edited.endsWith("\n") ? edited : `${edited}\n`}{{#if environment.memory}}\n${ADDED.guarded}\n{{/if}}\n`;
		}
		writeFileSync(file, withVersion(edited, bumped(versionOf(text))));
	}
	ownCategories(set);
	return rules;
}

/**
 * The set's categories made its own (a copy of the nearest shared one, the
 * way the loader finds it) with a category added first; `tools.hbs`, which
 * renders them, is bumped above.
 */
function ownCategories(set: string): void {
	const own = join(set, "categories.yaml");
	let from = own;
	for (let dir = set; !existsSync(from); dir = dirname(dir)) {
		if (dirname(dir) === dir) throw new Error(`no categories.yaml for ${set}`);
		from = join(dirname(dir), "categories.yaml");
	}
	const doc = parseDocument(readFileSync(from, "utf8"));
	const categories = doc.get("categories") as { items: unknown[] };
	categories.items.unshift(
		doc.createNode({ name: ADDED.category, tools: ["restructured_tool", "restructured_*"] }),
	);
	writeFileSync(own, doc.toString());
}

/** A template's front-matter (with its closing line) and its body. */
function split(text: string): { head: string; body: string } {
	const { body } = parseTemplateFile(text, "template.hbs");
	return { head: text.slice(0, text.length - body.length), body };
}

/** The first line at or after the middle that no block is open across (0 when none is). */
function topLevelCut(lines: readonly string[]): number {
	let depth = 0;
	const free: number[] = [];
	lines.forEach((line, i) => {
		if (depth === 0) free.push(i);
		depth += (line.match(/\{\{~?#/g) ?? []).length - (line.match(/\{\{~?\//g) ?? []).length;
	});
	const middle = Math.floor(lines.length / 2);
	return free.find((i) => i >= middle && lines.slice(i).some((l) => l.trim() !== "")) ?? 0;
}

/**
 * Expected prompt text derived from the templates themselves: a view-model
 * written out by the test, rendered by the bundled newest set. Tests assert
 * that a session yields the right view (values, grouping, order); the
 * wording stays the templates' own, reviewed in the snapshots.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ContextService } from "../../src/index.js";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { readTemplateSets } from "../../src/templates/load.js";
import type { SystemView } from "../../src/view/schema.js";
import { SUMMARY_LABELS } from "../../src/view/schema.js";
import { section } from "./session.js";
import { BUNDLED_SET, NEWEST, ROOT } from "./template-sets.js";

const set = new ContextService().templateSet();

/** The system prompt the bundled set renders for `view` (cwd defaults to the test header's). */
export function expectedPrompt(view: Partial<SystemView> = {}): string {
	return set.render.system({
		harness: {},
		toolGroups: [],
		environment: { cwd: "/home/user/project" },
		...view,
	});
}

/** One section's text (inside its tags) as the bundled set renders it for `view`. */
export function expectedSection(name: string, view: Partial<SystemView> = {}): string {
	return section(expectedPrompt(view), name) as string;
}

/**
 * Which line of the harness holds the introduction: the one line a session's
 * own introduction changes (wherever the templates put it).
 */
const INTRODUCTION_LINE = (() => {
	const standard = expectedSection("harness").split("\n");
	const own = expectedSection("harness", { harness: { introduction: "\u0001" } }).split("\n");
	const changed = standard.flatMap((line, i) => (line === own[i] ? [] : [i]));
	if (changed.length !== 1 || own.length !== standard.length) {
		throw new Error("the harness does not hold the introduction on a line of its own");
	}
	return changed[0] as number;
})();

/** The line of a harness section that holds the session's introduction (or the default one). */
export function introductionOf(harness: string | undefined): string | undefined {
	return harness?.split("\n")[INTRODUCTION_LINE];
}

/** The harness's default introduction line (no introduction in the session). */
export const DEFAULT_INTRODUCTION = introductionOf(expectedSection("harness")) as string;

/** The framed compact summary for a critical-context-only summary. */
export function expectedCollapse(criticalContext: string): string {
	return expectedCollapseOf({ "critical context": criticalContext });
}

/** The framed compact summary whose components hold `values` (by label; the others empty). */
export function expectedCollapseOf(values: Readonly<Record<string, string>>): string {
	const components = SUMMARY_LABELS.map((label) => ({ label, value: values[label] ?? "" }));
	return set.render["collapse-context"]({ components });
}

type Framings = typeof set.render;
type Framing = Exclude<keyof Framings, "system" | "tool-result-stub">;

/** What the bundled set's framing `name` renders for `view`. */
export function expectedFraming<N extends Framing>(
	name: N,
	view: Parameters<Framings[N]>[0],
): string {
	return (set.render[name] as (view: Parameters<Framings[N]>[0]) => string)(view);
}

/** The front-matter `marker` of a framing template of the bundled newest set. */
export function markerOf(template: string): string {
	const text = readFileSync(join(BUNDLED_SET, `${template}.hbs`), "utf8");
	const { marker } = parseTemplateFile(text, `${template}.hbs`).meta;
	if (marker === undefined) throw new Error(`${template}.hbs declares no marker`);
	return marker;
}

/** The compact summary's marker (the collapse framing's first line). */
export const COLLAPSE_MARKER = markerOf("collapse-context");

/** Every framing marker of the bundled newest set. */
export const MARKERS: readonly string[] = set.markers;

interface CategoriesFile {
	other: string;
	categories: { name: string; tools: string[] }[];
}
/** The categories.yaml the bundled newest set renders with (its own, or the shared one). */
const categories = parse(
	readTemplateSets(join(ROOT, "templates")).get(NEWEST)?.categories.text ?? "",
) as CategoriesFile;

/** The name of the category `categories.yaml` lists `tool` under (exactly or by a prefix). */
export function categoryOf(tool: string): string {
	const exact = categories.categories.find((c) => c.tools.includes(tool));
	if (exact !== undefined) return exact.name;
	const byPrefix = categories.categories.find((c) =>
		c.tools.some((t) => t.endsWith("*") && tool.startsWith(t.slice(0, -1))),
	);
	return byPrefix?.name ?? categories.other;
}

/** Where a category stands in `categories.yaml` (Other last). */
export function categoryIndex(name: string): number {
	const i = categories.categories.findIndex((c) => c.name === name);
	return i === -1 ? categories.categories.length : i;
}

/** The tool groups a list of tools should make: by category in file order, sorted, deduplicated. */
export function groupsOf(tools: readonly string[]): { name: string; tools: string[] }[] {
	const groups = new Map<string, Set<string>>();
	for (const tool of tools) {
		const name = categoryOf(tool);
		groups.set(name, (groups.get(name) ?? new Set()).add(tool));
	}
	return [...groups.entries()]
		.sort(([a], [b]) => categoryIndex(a) - categoryIndex(b))
		.map(([name, set]) => ({ name, tools: [...set].sort() }));
}

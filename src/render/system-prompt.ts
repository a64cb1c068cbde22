/**
 * Composing the system prompt. The skeleton was proved in order when the set
 * was compiled; the rendered text is checked again here, so a section out of
 * place can never reach a model, whatever a template or a value did.
 */
import { ContextError } from "../errors.js";
import type { TemplateSet } from "../templates/set.js";
import { SECTIONS } from "../view/constants.js";
import type { SystemView } from "../view/schema.js";

/** Anything that reads as a section tag, wherever it stands (session values cannot hold one). */
const TAG = new RegExp(`<\\s*(?:/\\s*)?(?:${SECTIONS.join("|")})\\b[^>]*>`, "gi");

/** Renders the system prompt of `view` with `set`, sections guaranteed in order. */
export function renderSystemPrompt(set: TemplateSet, view: SystemView): string {
	const text = set.render.system(view);
	assertSections(text, view.lineage !== undefined, set.version);
	return text;
}

/**
 * Throws unless the section tags of `text` are exactly harness, tools,
 * environment and (iff `lineage`) lineage, in order, each alone on its line.
 */
export function assertSections(text: string, lineage: boolean, version = "?"): void {
	const expected = (lineage ? SECTIONS : SECTIONS.slice(0, 3)).flatMap((s) => [
		`<${s}>`,
		`</${s}>`,
	]);
	const found = [...text.matchAll(TAG)];
	const alone = (m: RegExpMatchArray) => {
		const start = m.index ?? 0;
		const end = start + m[0].length;
		return (start === 0 || text[start - 1] === "\n") && (end === text.length || text[end] === "\n");
	};
	const ok =
		found.length === expected.length &&
		found.every((m, i) => m[0] === expected[i] && alone(m)) &&
		text.startsWith("<harness>");
	if (!ok) {
		throw new ContextError(
			"section_order",
			`template set ${version} rendered section tags ${found.map((m) => m[0]).join(" ") || "(none)"}; expected ${expected.join(" ")}, each alone on its line`,
		);
	}
}

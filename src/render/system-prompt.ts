/**
 * Composing the system prompt. The skeleton was proved in order when the set
 * was compiled; the rendered text is checked again here, so a section out of
 * place can never reach a model, whatever a template or a value did.
 */
import { ContextError } from "../errors.js";
import type { TemplateSet } from "../templates/compile.js";
import { SECTIONS, type SystemView } from "../view/schema.js";

const TAG_LINE = new RegExp(`^</?(?:${SECTIONS.join("|")})>$`, "gm");

/** Renders the system prompt of `view` with `set`, sections guaranteed in order. */
export function renderSystemPrompt(set: TemplateSet, view: SystemView): string {
	const text = set.render.system(view);
	assertSections(text, view.lineage !== undefined, set.version);
	return text;
}

/**
 * Throws unless the section tags of `text`, each alone on its line, are
 * exactly harness, tools, environment and (iff `lineage`) lineage, in order.
 */
export function assertSections(text: string, lineage: boolean, version = "?"): void {
	const expected = (lineage ? SECTIONS : SECTIONS.slice(0, 3)).flatMap((s) => [
		`<${s}>`,
		`</${s}>`,
	]);
	const found = text.match(TAG_LINE) ?? [];
	const ok =
		found.length === expected.length &&
		found.every((tag, i) => tag === expected[i]) &&
		text.startsWith("<harness>");
	if (!ok) {
		throw new ContextError(
			"section_order",
			`template set ${version} rendered sections ${found.join(" ") || "(none)"}; expected ${expected.join(" ")}`,
		);
	}
}

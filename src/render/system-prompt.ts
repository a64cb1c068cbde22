/**
 * Composing the system prompt. The skeleton was proved in order when the set
 * was compiled; the rendered text is checked again here, so a section out of
 * place can never reach a model, whatever a template or a value did.
 */
import { ContextError } from "../errors.js";
import type { TemplateSet } from "../templates/set.js";
import { foldForMatch } from "../view/fold.js";
import { foldedPattern, matchFolded, SECTIONS, tagPattern } from "../view/reserved.js";
import type { SystemView } from "../view/schema.js";

/**
 * Anything that reads as a section tag, on the folded text: look-alikes,
 * zero-width characters, case and spacing included. Up to its `>` when it
 * has one before the next `<` or line end (so the scan stays linear).
 */
const TAG = foldedPattern((ascii) => `${tagPattern(SECTIONS, ascii)}(?:[^<>\\n]*>)?`);

/** Renders the system prompt of `view` with `set`, sections guaranteed in order. */
export function renderSystemPrompt(set: TemplateSet, view: SystemView): string {
	const text = set.render.system(view);
	assertSections(text, view.lineage !== undefined, set.version);
	return text;
}

/**
 * Throws unless the section tags of `text` are exactly harness, tools,
 * environment and (iff `lineage`) lineage, in order, each alone on its line,
 * and nothing else in it reads as one.
 */
export function assertSections(text: string, lineage: boolean, version = "?"): void {
	const expected = (lineage ? SECTIONS : SECTIONS.slice(0, 3)).flatMap((s) => [
		`<${s}>`,
		`</${s}>`,
	]);
	const folded = foldForMatch(text);
	const found = [...matchFolded(folded, TAG)].map((m) => {
		const start = folded.origin(m.index);
		const end = folded.origin(m.index + m[0].length);
		return { tag: text.slice(start, end), start, end };
	});
	const alone = ({ start, end }: { start: number; end: number }) =>
		(start === 0 || text[start - 1] === "\n") && (end === text.length || text[end] === "\n");
	const ok =
		found.length === expected.length &&
		found.every((f, i) => f.tag === expected[i] && alone(f)) &&
		text.startsWith("<harness>");
	if (!ok) {
		throw new ContextError(
			"section_order",
			`template set ${version} rendered section tags ${found.map((f) => JSON.stringify(f.tag)).join(" ") || "(none)"}; expected ${expected.join(" ")}, each alone on its line`,
		);
	}
}

/**
 * Token budgets: a template's front-matter may say how many tokens its
 * rendering may take (`budget: { tokens: 1200 }`), counted with o200k. For a
 * section template that is the section with its tags, for any other partial
 * its own output, for a framing each message it frames, for the skeleton the
 * whole system prompt. `build` fails at the budget's line when a fixture goes
 * over; `inspect` shows how much of it is used.
 */
import type { TemplateSetSource } from "../templates/compile.js";
import { parseTemplateFile } from "../templates/front-matter.js";

/** A declared budget and where it is declared. */
export interface Budget {
	tokens: number;
	file: string;
	/** Where its number stands in the front-matter, as the YAML parser locates it. */
	line: number;
	column: number;
}

/** Every template of `source` that declares a budget, by name. Unreadable templates are left out. */
export function templateBudgets(source: TemplateSetSource): Map<string, Budget> {
	const out = new Map<string, Budget>();
	for (const [name, { file, text }] of source.templates) {
		let parsed: ReturnType<typeof parseTemplateFile>;
		try {
			parsed = parseTemplateFile(text, file);
		} catch {
			continue; // its front-matter error is reported by the template check
		}
		const tokens = parsed.meta.budget?.tokens;
		if (tokens !== undefined)
			out.set(name, { tokens, file, ...parsed.locate(["budget", "tokens"]) });
	}
	return out;
}

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

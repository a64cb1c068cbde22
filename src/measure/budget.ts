/**
 * Token budgets: a template's front-matter may say how many tokens its
 * rendering may take (`budget: { tokens: 1200 }`), counted with o200k. For a
 * section template that is the section with its tags, for any other partial
 * its own output, for a framing each message it frames, for the skeleton the
 * whole system prompt. `build` fails at the budget's line when a fixture goes
 * over; `inspect` shows how much of it is used.
 */
import type { Diagnostic } from "../errors.js";
import type { TemplateSetSource } from "../templates/compile.js";
import { parseTemplateFile } from "../templates/front-matter.js";
import type { ContextSize } from "./measure.js";

/** A declared budget and where it is declared. */
export interface Budget {
	tokens: number;
	file: string;
	/** The line of `tokens:` under `budget:` (or of `budget:` itself). */
	line: number;
	column: number;
}

/** Every template of `source` that declares a budget, by name. Unreadable templates are left out. */
export function templateBudgets(source: TemplateSetSource): Map<string, Budget> {
	const out = new Map<string, Budget>();
	for (const [name, { file, text }] of source.templates) {
		let tokens: number | undefined;
		try {
			tokens = parseTemplateFile(text, file).meta.budget?.tokens;
		} catch {
			continue; // its front-matter error is reported by the template check
		}
		if (tokens !== undefined) out.set(name, { tokens, file, ...budgetLine(text) });
	}
	return out;
}

/** Where the budget's number stands in a template's front-matter. */
function budgetLine(text: string): { line: number; column: number } {
	const lines = text.split("\n");
	const key = lines.findIndex((l) => /^budget\s*:/.test(l));
	if (key === -1) return { line: 1, column: 1 };
	for (let i = key; i < lines.length && (i === key || /^\s/.test(lines[i] as string)); i++) {
		const column = (lines[i] as string).search(/\btokens\s*:/);
		if (column !== -1) return { line: i + 1, column: column + 1 };
	}
	return { line: key + 1, column: 1 };
}

/** One rendering over its template's budget. */
export interface BudgetOverrun {
	template: string;
	/** What went over: a section, a part, a message, or the system prompt. */
	what: string;
	tokens: number;
	budget: number;
}

/** Every rendering of `size` over its template's budget. */
export function overBudget(size: ContextSize): BudgetOverrun[] {
	const out: BudgetOverrun[] = [];
	const check = (template: string, what: string, tokens: number, budget: number | undefined) => {
		if (budget !== undefined && tokens > budget) out.push({ template, what, tokens, budget });
	};
	const system = size.systemPrompt;
	check("system", "the system prompt", system.tokens, system.budget);
	for (const s of system.sections) {
		check(s.template, `section ${s.name}`, s.tokens, s.budget);
		for (const p of s.parts ?? [])
			check(p.template, `part ${p.template} of ${s.name}`, p.tokens, p.budget);
	}
	for (const m of size.messages) {
		if (m.template !== undefined) check(m.template, `message ${m.index}`, m.tokens, m.budget);
	}
	return out;
}

/** An overrun as a located build error, at the budget's line. */
export function budgetDiagnostic(
	overrun: BudgetOverrun,
	budget: Budget,
	fixture: string,
): Diagnostic {
	return {
		severity: "error",
		code: "over_budget",
		message: `${overrun.template} is over its budget of ${budget.tokens} tokens: ${overrun.what} of ${fixture} takes ${overrun.tokens} (o200k)`,
		file: budget.file,
		line: budget.line,
		column: budget.column,
	};
}

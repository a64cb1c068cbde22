/**
 * The budgets rule: renderings over their template's budget, found in a
 * measured context, and each as the located error `build` (and the language
 * server, as you type) reports at the budget's line.
 */
import type { Diagnostic } from "../errors.js";
import type { Budget } from "../measure/budget.js";
import type { ContextSize } from "../measure/measure.js";

/** One rendering over its template's budget. */
export interface BudgetOverrun {
	template: string;
	/** What went over: a section, a part, a message, or the system prompt. */
	what: string;
	tokens: number;
	budget: number;
	/** The unit of `tokens` (the fixture's model's: `o200k`, `claude~`). */
	unit: string;
}

/** Every rendering of `size` over its template's budget. */
export function overBudget(size: ContextSize): BudgetOverrun[] {
	const out: BudgetOverrun[] = [];
	const check = (template: string, what: string, tokens: number, budget: number | undefined) => {
		if (budget !== undefined && tokens > budget)
			out.push({ template, what, tokens, budget, unit: size.tokenizer.name });
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
		message: `${overrun.template} is over its budget of ${budget.tokens} tokens: ${overrun.what} of ${fixture} takes ${overrun.tokens} (${overrun.unit})`,
		file: budget.file,
		line: budget.line,
		column: budget.column,
	};
}

/**
 * One error per template over its budget in any of the `measured` renderings
 * of one set, at the budget's line, naming the worst fixture.
 */
export function budgetErrors(
	budgets: ReadonlyMap<string, Budget>,
	measured: Iterable<{ fixture: string; size: ContextSize }>,
): Diagnostic[] {
	const out: Diagnostic[] = [];
	const worst = new Map<string, { overrun: BudgetOverrun; fixture: string; count: number }>();
	for (const { fixture, size } of measured) {
		for (const overrun of overBudget(size)) {
			const seen = worst.get(overrun.template);
			if (seen === undefined) worst.set(overrun.template, { overrun, fixture, count: 1 });
			else {
				seen.count++;
				if (overrun.tokens > seen.overrun.tokens) Object.assign(seen, { overrun, fixture });
			}
		}
	}
	for (const [template, { overrun, fixture, count }] of worst) {
		const budget = budgets.get(template);
		if (budget === undefined) continue;
		const d = budgetDiagnostic(overrun, budget, fixture);
		out.push(count > 1 ? { ...d, message: `${d.message} (and ${count - 1} more over it)` } : d);
	}
	return out;
}

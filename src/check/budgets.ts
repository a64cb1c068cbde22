/**
 * Token budgets at build time: every fixture is rendered with every set that
 * declares a budget, and each template's renderings are measured against it
 * (o200k). One located error per template over its budget, at the budget's
 * line, naming the worst fixture.
 */
import type { Diagnostic } from "../errors.js";
import {
	type Budget,
	type BudgetOverrun,
	budgetDiagnostic,
	overBudget,
	templateBudgets,
} from "../measure/budget.js";
import type { ContextSize } from "../measure/measure.js";
import { measureLoaded, measuringService } from "../measure/session.js";
import { loadTokenizerSync } from "../measure/tokenizer.js";
import type { TemplateSetSource } from "../templates/compile.js";

/** Budget errors for `fixtures` rendered with each of `sources` that declares budgets. */
export function checkBudgets(
	templates: string,
	sources: readonly TemplateSetSource[],
	fixtures: readonly string[],
): Diagnostic[] {
	const withBudgets = sources
		.map((source) => ({ source, budgets: templateBudgets(source) }))
		.filter((s) => s.budgets.size > 0);
	if (withBudgets.length === 0 || fixtures.length === 0) return [];
	const tokenizer = loadTokenizerSync("o200k");
	const target = measuringService({ templates });
	const out: Diagnostic[] = [];
	for (const { source, budgets } of withBudgets) {
		const measured = fixtures.map((fixture) => ({
			fixture,
			size: measureLoaded(target, fixture, tokenizer, { templateVersion: source.version }).size,
		}));
		out.push(...budgetErrors(budgets, measured));
	}
	return out;
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

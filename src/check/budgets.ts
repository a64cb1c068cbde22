/**
 * Token budgets at build time: every fixture is rendered with every set that
 * declares a budget, and each template's renderings are measured against it
 * (in the units of each fixture's model, as `--tokenizer auto` counts them). One located error per template over its budget, at the budget's
 * line, naming the worst fixture.
 */
import type { Diagnostic } from "../errors.js";
import { templateBudgets } from "../measure/budget.js";
import { measureLoaded, measuringService } from "../measure/session.js";
import { readUnits, Units } from "../measure/units.js";
import { budgetErrors } from "../rules/budgets.js";
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
	const tokenizer = new Units({ table: readUnits() });
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

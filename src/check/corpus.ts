/**
 * The build step's checks over real sessions (`build --corpus DIR`): every
 * template set type-checked, every session rendered with its own set and
 * measured against every declared budget, no snapshot needed. Real logs are
 * read as the corpus commands read them (pi's, Claude Code's, Codex's),
 * leniently: a damaged line is a repair, and a session that cannot be read
 * at all is left out with a warning, never an abort. Errors are what a
 * template causes: a set that does not build, a session a set fails to
 * render, a budget gone over; each once, with the sessions it hits.
 */
import { ContextError, type Diagnostic } from "../errors.js";
import { type Budget, templateBudgets } from "../measure/budget.js";
import { namedFew } from "../measure/diff-groups.js";
import type { ContextSize } from "../measure/measure.js";
import { type MeasuredSession, Measuring, measureLoaded } from "../measure/session.js";
import { readUnits, Units } from "../measure/units.js";
import { type BudgetOverrun, budgetDiagnostic, overBudget } from "../rules/budgets.js";
import type { LoadOptions } from "../service/bundle.js";
import { precompileTemplateSet, type TemplateSetSource } from "../templates/compile.js";
import { withFrame } from "../templates/frame.js";
import { readTemplateSets } from "../templates/load.js";
import type { CheckReporter } from "./run.js";

/** The codes of a failure to render that the templates cause (the others are the session's). */
const TEMPLATE_CODES = new Set<string>([
	"render",
	"section_order",
	"template_type",
	"unknown_partial",
	"partial_cycle",
	"unknown_helper",
	"bad_template",
	"bad_front_matter",
	"bad_categories",
	"internal",
]);

export interface CorpusCheckOptions {
	/** The templates folder. */
	templates: string;
	/** The sessions, in the order they are reported. */
	files: readonly string[];
	/** What every session is loaded with (a tools manifest's names, say). */
	load?: LoadOptions;
	/** Told after each session is done. */
	progress?: (done: number, total: number) => void;
}

export interface CorpusCheckResult {
	errors: Diagnostic[];
	/** Whether every set built (else no session was rendered). */
	built: boolean;
	/** The sessions rendered and measured. */
	checked: number;
	/** The sessions left out: they could not be read (each warned). */
	leftOut: number;
	/** The sessions read with repairs (each warned once, with how many). */
	repaired: number;
}

/** Runs the checks over the corpus; what it finds goes to `reporter` as it is found. */
export function checkCorpus(
	options: CorpusCheckOptions,
	reporter: CheckReporter,
): CorpusCheckResult {
	const errors: Diagnostic[] = [];
	const report = (d: Diagnostic) => {
		if (d.severity === "error") errors.push(d);
		reporter.diagnostic(withFrame(d));
	};
	const result = { errors, built: false, checked: 0, leftOut: 0, repaired: 0 };
	const sources = [...readTemplateSets(options.templates, report).values()];
	for (const source of sources) {
		try {
			precompileTemplateSet(source);
			reporter.info(`ok templates ${source.version}: ${source.templates.size} templates checked`);
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			for (const d of error.diagnostics.length > 0 ? error.diagnostics : [error.toDiagnostic()])
				report(d);
		}
	}
	if (errors.length > 0) return result;
	result.built = true;

	const target = new Measuring({ templates: options.templates, strict: false });
	const units = new Units({ table: readUnits() });
	const budgeted = sources
		.map((source) => ({ source, budgets: templateBudgets(source) }))
		.filter((s) => s.budgets.size > 0);
	const failures = new Map<string, { error: ContextError; files: string[] }>();
	const overruns = new Map<
		string,
		{ budget: Budget; hits: { file: string; o: BudgetOverrun }[] }
	>();
	options.files.forEach((file, done) => {
		const own = measure(target, file, units, options.load ?? {}, failures);
		if (own instanceof ContextError) {
			result.leftOut++;
			const d = own.toDiagnostic();
			const located = own.file === file ? d : { ...d, file, message: own.message };
			report({ ...located, severity: "warning", message: `left out: ${located.message}` });
		} else if (own !== "failed") {
			result.checked++;
			const read = own.bundle.meta.diagnostics;
			if (read.length > 0) {
				result.repaired++;
				const first = read[0] as Diagnostic;
				report({
					severity: "warning",
					code: first.code,
					message: `read with ${read.length} line${read.length === 1 ? "" : "s"} skipped or repaired, the first: ${first.message}`,
					file,
					...(first.line === undefined ? {} : { line: first.line }),
				});
			}
			for (const { source, budgets } of budgeted) {
				const size =
					source.version === own.set.version
						? own.size
						: sizeWith(target, file, units, options.load ?? {}, source);
				if (size !== undefined) addOverruns(overruns, budgets, size, file);
			}
		}
		options.progress?.(done + 1, options.files.length);
	});
	for (const { error, files } of failures.values()) {
		report({
			...error.toDiagnostic(),
			message: `${error.reason} (rendering ${sessions(files)})`,
		});
	}
	for (const { budget, hits } of overruns.values()) {
		hits.sort((a, b) => b.o.tokens - a.o.tokens);
		const worst = hits[0] as { file: string; o: BudgetOverrun };
		const d = budgetDiagnostic(worst.o, budget, worst.file);
		report({ ...d, message: `${d.message}; over it in ${sessions(hits.map((h) => h.file))}` });
	}
	return result;
}

/** `3 sessions: a, b, c` (the first few named). */
function sessions(files: readonly string[]): string {
	const unique = [...new Set(files)];
	return `${unique.length} session${unique.length === 1 ? "" : "s"}: ${namedFew(unique)}`;
}

/**
 * A session measured with its own set; a failure the templates cause is
 * recorded in `failures` (one entry per distinct error); one the session
 * causes (it cannot be read, it pins a set there is not) is returned: the
 * session is left out.
 */
function measure(
	target: Measuring,
	file: string,
	units: Units,
	load: LoadOptions,
	failures: Map<string, { error: ContextError; files: string[] }>,
): MeasuredSession | ContextError | "failed" {
	try {
		return measureLoaded(target, file, units, load);
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		if (!TEMPLATE_CODES.has(error.code) || error.file === file) return error;
		const seen = failures.get(error.message);
		if (seen === undefined) failures.set(error.message, { error, files: [file] });
		else seen.files.push(file);
		return "failed";
	} finally {
		target.service.close(file);
	}
}

/** A session's size under another set that declares budgets (a failure there is the own set's to report). */
function sizeWith(
	target: Measuring,
	file: string,
	units: Units,
	load: LoadOptions,
	source: TemplateSetSource,
): ContextSize | undefined {
	try {
		return measureLoaded(target, file, units, { ...load, templateVersion: source.version }).size;
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		return undefined;
	} finally {
		target.service.close(file);
	}
}

/** Each overrun of `size` recorded under its template's budget. */
function addOverruns(
	overruns: Map<string, { budget: Budget; hits: { file: string; o: BudgetOverrun }[] }>,
	budgets: ReadonlyMap<string, Budget>,
	size: ContextSize,
	file: string,
): void {
	for (const o of overBudget(size)) {
		const budget = budgets.get(o.template);
		if (budget === undefined) continue;
		const key = `${budget.file}:${budget.line}`;
		const entry = overruns.get(key) ?? { budget, hits: [] };
		entry.hits.push({ file, o });
		overruns.set(key, entry);
	}
}

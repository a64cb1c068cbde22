/**
 * The fixture sessions rendered with the editor's texts: each template's
 * size on them (for hovers), their budget errors (the build step's
 * `budgetErrors`), and one template's output for one fixture (the render
 * command). Renderings go through a registry that holds the unsaved sets, and
 * are remembered by the set's content: a set is measured once per version of
 * its texts.
 */

import type { Diagnostic } from "../errors.js";
import { templateBudgets } from "../measure/budget.js";
import type { ContextSize } from "../measure/measure.js";
import { Measuring, measureLoaded } from "../measure/session.js";
import { readUnits, Units } from "../measure/units.js";
import { convertMessage } from "../render/convert.js";
import { stubsOf } from "../render/stubs.js";
import { budgetErrors } from "../rules/budgets.js";
import type { LlmMessage } from "../session/messages.js";
import { fingerprintOf, type TemplateSetSource } from "../templates/compile.js";
import { contentOf } from "../text/content.js";
import { loadTokenizerSync } from "../text/tokenizer.js";
import { checkSet } from "./diagnostics.js";

/** One template's largest rendering over the fixtures. */
export interface TemplateSize {
	tokens: number;
	/** The unit of `tokens`: the fixture's model's (`o200k`, `claude~`). */
	unit: string;
	fixture: string;
	budget?: number;
}

export interface SetMeasure {
	/** Per fixture, the measured context (fixtures that failed to render are left out). */
	sizes: { fixture: string; size: ContextSize }[];
	/** Per template, its largest rendering. */
	largest: Map<string, TemplateSize>;
	/** The build step's budget errors. */
	budgets: Diagnostic[];
}

const measured = new Map<string, SetMeasure>();

/** Forgets every measure (a fixture session changed on disk). */
export function forgetMeasures(): void {
	measured.clear();
}

/** A measuring service over sets given in memory: what the editor holds, saved or not. */
function target(root: string, sets: ReadonlyMap<string, TemplateSetSource>): Measuring {
	return new Measuring({ templates: root, precompiled: false, sources: sets });
}

/**
 * `source` (one of `sets`) measured on every fixture, or undefined when the
 * set does not check (nothing renders until it does).
 */
export function measureSet(
	root: string,
	sets: ReadonlyMap<string, TemplateSetSource>,
	source: TemplateSetSource,
	fixtures: readonly string[],
): SetMeasure | undefined {
	const fingerprint = fingerprintOf(source);
	const key = `${source.dir}\0${fingerprint}\0${fixtures.join("\0")}`;
	const cached = measured.get(key);
	if (cached !== undefined) return cached;
	if (checkSet(source, fingerprint).length > 0) return undefined;
	const tokenizer = new Units({ table: readUnits() });
	const t = target(root, sets);
	const sizes: SetMeasure["sizes"] = [];
	for (const fixture of fixtures) {
		try {
			const options = { templateVersion: source.version };
			sizes.push({ fixture, size: measureLoaded(t, fixture, tokenizer, options).size });
		} catch {
			// A fixture that does not load is the build's to report (snapshot checks).
		}
	}
	const largest = new Map<string, TemplateSize>();
	let unit = "";
	const note = (template: string, tokens: number, fixture: string, budget?: number) => {
		const seen = largest.get(template);
		if (seen === undefined || tokens > seen.tokens)
			largest.set(template, { tokens, unit, fixture, ...(budget === undefined ? {} : { budget }) });
	};
	for (const { fixture, size } of sizes) {
		unit = size.tokenizer.name;
		note("system", size.systemPrompt.tokens, fixture, size.systemPrompt.budget);
		for (const s of size.systemPrompt.sections) {
			note(s.template, s.tokens, fixture, s.budget);
			for (const p of s.parts ?? []) note(p.template, p.tokens, fixture, p.budget);
		}
		for (const m of size.messages)
			if (m.template !== undefined) note(m.template, m.tokens, fixture, m.budget);
	}
	const result = { sizes, largest, budgets: budgetErrors(templateBudgets(source), sizes) };
	if (measured.size > 50) measured.clear();
	measured.set(key, result);
	return result;
}

/**
 * What template `name` of `source` writes for `fixture`: its section (tags
 * included) or part of the system prompt, the whole prompt for the
 * skeleton, or each message it frames. Throws the located error of a set
 * that does not compile or a fixture that does not load.
 */
export function renderTemplate(
	root: string,
	sets: ReadonlyMap<string, TemplateSetSource>,
	source: TemplateSetSource,
	name: string,
	fixture: string,
): string {
	const t = target(root, sets);
	const m = measureLoaded(t, fixture, loadTokenizerSync("chars"), {
		templateVersion: source.version,
	});
	const prompt = m.bundle.systemPrompt;
	if (name === "system") return prompt;
	const out: string[] = [];
	for (const s of m.size.systemPrompt.sections) {
		if (s.template === name) out.push(prompt.slice(s.start, s.end));
		for (const p of s.parts ?? []) if (p.template === name) out.push(prompt.slice(p.start, p.end));
	}
	const stubAt = stubsOf(m.bundle, m.set);
	for (const size of m.size.messages) {
		if (size.template !== name) continue;
		const message = m.bundle.messages[size.index];
		const llm = stubAt(size.index) ?? (message && convertMessage(message, m.set));
		if (llm !== undefined) out.push(contentOf((llm as LlmMessage).content).text);
	}
	return out.join("\n\n");
}

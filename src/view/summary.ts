/**
 * The rolling compact summary's five fixed components: parsed from the stored
 * text, cut to the per-component caps of the template set, and written back
 * in the one normalised form the `collapse_context` payload carries.
 */
import { SUMMARY_LABELS, type SummaryLabel } from "./constants.js";
import type { SummaryComponent } from "./schema.js";

export type SummaryCaps = Readonly<Record<SummaryLabel, number>>;

const LABEL_LINE = new RegExp(`^(${SUMMARY_LABELS.join("|")})[ \\t]*:[ \\t]*`);

/**
 * Splits a stored summary into the five components, in their fixed order.
 * A label starts a line (`goal: …`); its value runs until the next label.
 * Text with no label at all (plain or legacy) goes whole under
 * `critical context`, and so does any text before the first label.
 */
export function parseSummary(text: string): SummaryComponent[] {
	const values = new Map<SummaryLabel, string[]>();
	let current: SummaryLabel = "critical context";
	const preamble: string[] = [];
	let target = preamble;
	for (const line of text.split("\n")) {
		const match = LABEL_LINE.exec(line);
		if (match !== null) {
			current = match[1] as SummaryLabel;
			let lines = values.get(current);
			if (lines === undefined) {
				lines = [];
				values.set(current, lines);
			} else {
				lines.push(""); // a repeated label continues its component
			}
			target = lines;
			target.push(line.slice(match[0].length));
		} else {
			target.push(line);
		}
	}
	const components = SUMMARY_LABELS.map((label) => ({
		label,
		value: (values.get(label) ?? []).join("\n").trim(),
	}));
	const lead = preamble.join("\n").trim();
	if (lead !== "") {
		const critical = components[4] as SummaryComponent;
		critical.value = critical.value === "" ? lead : `${lead}\n${critical.value}`;
	}
	return components;
}

/** Cuts each component to its cap (in characters, never inside a surrogate pair). */
export function capSummary(
	components: readonly SummaryComponent[],
	caps: SummaryCaps,
): { components: SummaryComponent[]; cut: { label: SummaryLabel; from: number; to: number }[] } {
	const cut: { label: SummaryLabel; from: number; to: number }[] = [];
	const out = components.map(({ label, value }) => {
		const cap = caps[label];
		const capped = truncate(value, cap);
		if (capped !== value) cut.push({ label, from: codePoints(value), to: cap });
		return { label, value: capped };
	});
	return { components: out, cut };
}

/** `label: value` per component, one after another: the payload's normal form. */
export function formatSummary(components: readonly SummaryComponent[]): string {
	return components.map(({ label, value }) => `${label}: ${value}`).join("\n");
}

const ELLIPSIS = "…";

/** At most `cap` characters; a cut value ends in an ellipsis. */
function truncate(value: string, cap: number): string {
	if (value.length <= cap || codePoints(value) <= cap) return value;
	let count = 0;
	let i = 0;
	const limit = cap - ELLIPSIS.length;
	while (i < value.length && count < limit) {
		const c = value.charCodeAt(i);
		i += c >= 0xd800 && c <= 0xdbff && i + 1 < value.length ? 2 : 1;
		count++;
	}
	return value.slice(0, i).trimEnd() + ELLIPSIS;
}

function codePoints(value: string): number {
	let n = 0;
	for (let i = 0; i < value.length; i++) {
		const c = value.charCodeAt(i);
		if (!(c >= 0xdc00 && c <= 0xdfff)) n++;
	}
	return n;
}

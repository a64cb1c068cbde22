/**
 * What `diff` prints: per session, each changed part with its token delta
 * and the unified diff of its text (coloured on a terminal, control
 * characters escaped), a tool result gone from whole to stub or back as its
 * one heading line unless the output is full; then one summary over the
 * corpus.
 */
import { escapeControl, paint } from "../text/terminal.js";
import type { ChangedPart, Savings, SessionDiff } from "./compare.js";
import { unitsLabel } from "./units.js";

export interface DiffSummary {
	sessions: number;
	changed: number;
	unchanged: number;
	failed: number;
	/** Warnings the sessions' reads gave (printed on stderr unless --quiet). */
	warnings: number;
	/** The sets the compared sessions were rendered with, on each side (each once, in order met). */
	sets: { from: string[]; to: string[] };
	/** Changed messages by what they are ({@link describeMessage}): how many, and their token change. */
	messages: { what: string; count: number; tokenDelta: number }[];
	/** Whole-context token delta per compared session (to − from). */
	tokenDelta: { min: number; median: number; max: number; total: number } | null;
	/** Tool results sent as stubs over the compared sessions, on each side, and the tokens saved (in {@link DiffSummary.units}). */
	virtualized: { from: Savings; to: Savings };
	/** The units of the compared sessions' token figures (each session's model's own, or the one asked for), each once. */
	units: string[];
}

/** The summary over every session's comparison. */
export function summarize(results: readonly SessionDiff[]): DiffSummary {
	const compared = results.filter((r) => r.error === undefined);
	const deltas = compared.map((r) => r.tokenDelta).sort((a, b) => a - b);
	const mid = deltas.length >> 1;
	const total = (side: "from" | "to"): Savings => ({
		results: compared.reduce((sum, r) => sum + r.virtualized[side].results, 0),
		saved: compared.reduce((sum, r) => sum + r.virtualized[side].saved, 0),
	});
	return {
		sessions: results.length,
		changed: compared.filter((r) => r.changed.length > 0).length,
		unchanged: compared.filter((r) => r.changed.length === 0).length,
		failed: results.length - compared.length,
		warnings: results.reduce((sum, r) => sum + r.warnings.length, 0),
		messages: messagesByKind(compared),
		sets: {
			from: [...new Set(compared.flatMap((r) => (r.sets === undefined ? [] : [r.sets.from])))],
			to: [...new Set(compared.flatMap((r) => (r.sets === undefined ? [] : [r.sets.to])))],
		},
		tokenDelta:
			deltas.length === 0
				? null
				: {
						min: deltas[0] as number,
						median:
							deltas.length % 2 === 1
								? (deltas[mid] as number)
								: Math.round(((deltas[mid - 1] as number) + (deltas[mid] as number)) / 2),
						max: deltas.at(-1) as number,
						total: deltas.reduce((a, b) => a + b, 0),
					},
		virtualized: { from: total("from"), to: total("to") },
		units: [...new Set(compared.map((r) => r.unit))],
	};
}

/** The changed messages of `results` grouped by what they are, most first. */
function messagesByKind(results: readonly SessionDiff[]): DiffSummary["messages"] {
	const kinds = new Map<string, { what: string; count: number; tokenDelta: number }>();
	for (const r of results) {
		for (const c of r.changed) {
			if (!c.section.startsWith("message ")) continue;
			const what = describeMessage(c.framing);
			const kind = kinds.get(what) ?? { what, count: 0, tokenDelta: 0 };
			kind.count++;
			kind.tokenDelta += c.tokensTo - c.tokensFrom;
			kinds.set(what, kind);
		}
	}
	return [...kinds.values()].sort((a, b) => b.count - a.count);
}

/** A token change with its sign: `+31`, `−1,204`, `±0`. */
export const signed = (n: number) =>
	`${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n).toLocaleString("en-US")}`;

/**
 * One session's changes as text; empty for an unchanged or failed session. A tool
 * result that one side sends as a stub is its heading line alone (both
 * texts are the result, whole or cut), unless `full`.
 */
export function formatSessionDiff(result: SessionDiff, color: boolean, full = false): string {
	const c = paint(color);
	const file = escapeControl(result.file).replace(/\n/g, "\\n");
	// A failed session's error is the command line's to say, in its voice.
	if (result.error !== undefined || result.changed.length === 0) return "";
	const delta = result.tokenDelta;
	const out = [
		c.bold(
			`═══ ${file}: ${result.changed.length} part${result.changed.length === 1 ? "" : "s"} changed, ${signed(delta)} tokens`,
		),
	];
	const { from, to } = result.virtualized;
	if (from.results !== to.results || from.saved !== to.saved) {
		const unit = unitsLabel([result.unit]);
		out.push(
			`virtualized tool results: ${from.results} → ${to.results}, saving ${count(from.saved)} → ${count(to.saved)} ${unit}`,
		);
	}
	for (const part of result.changed) {
		out.push(
			c.cyan(
				`──── ${part.section}${part.framing === undefined ? "" : ` (${describeMessage(part.framing)})`}: ${part.tokensFrom} → ${part.tokensTo} tokens (${signed(part.tokensTo - part.tokensFrom)})`,
			),
		);
		if (full || !isStubChange(part.framing)) out.push(coloredDiff(part.diff, c));
	}
	return `${out.join("\n")}\n\n`;
}

/** The corpus summary as text. */
export function formatSummary(summary: DiffSummary): string {
	const lines = [
		`${summary.sessions} session${summary.sessions === 1 ? "" : "s"}: ${summary.changed} changed, ${summary.unchanged} unchanged${summary.failed > 0 ? `, ${summary.failed} failed` : ""}${summary.warnings > 0 ? `; ${summary.warnings} warning${summary.warnings === 1 ? "" : "s"}` : ""}`,
	];
	const { sets } = summary;
	if (sets.from.length + sets.to.length > 0) {
		lines.push(`template sets: ${sets.from.join(", ")} → ${sets.to.join(", ")}`);
	}
	if (summary.messages.length > 0) {
		const kinds = summary.messages.map(
			(m) => `${m.what}: ${m.count} (${signed(m.tokenDelta)} tokens)`,
		);
		lines.push(`changed messages: ${kinds.join("; ")}`);
	}
	const d = summary.tokenDelta;
	if (d !== null) {
		lines.push(
			`token delta per session: min ${signed(d.min)}, median ${signed(d.median)}, max ${signed(d.max)} (total ${signed(d.total)})`,
		);
	}
	const { from, to } = summary.virtualized;
	if (from.results + to.results > 0) {
		const unit = unitsLabel(summary.units);
		lines.push(
			`virtualized tool results: ${from.results} → ${to.results}, saving ${count(from.saved)} → ${count(to.saved)} ${unit}`,
		);
	}
	return `${lines.join("\n")}\n`;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The framing of a tool result sent as a stub. */
const STUB = "tool-result-stub";

/**
 * What a changed message is, by how each side framed it: `a message framed
 * by compaction-summary.hbs`, `a tool result, stub → whole` when one side
 * sent it as a stub, `a message` when neither framed it.
 */
export function describeMessage(framing: ChangedPart["framing"]): string {
	const from = framing?.from;
	const to = framing?.to;
	if (from === to) return from === undefined ? "a message" : `a message framed by ${from}.hbs`;
	if (from === STUB && to === undefined) return "a tool result, stub → whole";
	if (from === undefined && to === STUB) return "a tool result, whole → stub";
	const side = (t: string | undefined) => (t === undefined ? "as stored" : `by ${t}.hbs`);
	return `a message framed ${side(from)} → ${side(to)}`;
}

/** Whether a changed message is a tool result that exactly one side sends as a stub. */
export function isStubChange(framing: ChangedPart["framing"]): boolean {
	return (framing?.from === STUB) !== (framing?.to === STUB);
}

/** A unified diff for a terminal: control characters escaped, hunk heads, removals and additions coloured. */
export function coloredDiff(diff: string, c: ReturnType<typeof paint>): string {
	return escapeControl(diff)
		.split("\n")
		.map((line) =>
			line.startsWith("@@")
				? c.cyan(line)
				: line.startsWith("-")
					? c.red(line)
					: line.startsWith("+")
						? c.green(line)
						: line,
		)
		.join("\n");
}

/**
 * What `diff` prints: per session, each changed part with its token delta
 * and the unified diff of its text (coloured on a terminal, control
 * characters escaped); then one summary over the corpus.
 */
import { escapeControl, failureLine, paint } from "../text/terminal.js";
import type { Savings, SessionDiff } from "./compare.js";

export interface DiffSummary {
	sessions: number;
	changed: number;
	unchanged: number;
	failed: number;
	/** Warnings the sessions' reads gave (printed on stderr unless --quiet). */
	warnings: number;
	/** Whole-context token delta per compared session (to − from). */
	tokenDelta: { min: number; median: number; max: number; total: number } | null;
	/** Tool results sent as stubs over the compared sessions, on each side, and the o200k tokens saved. */
	virtualized: { from: Savings; to: Savings };
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
	};
}

const signed = (n: number) =>
	`${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n).toLocaleString("en-US")}`;

/** One session's changes as text; empty for an unchanged session. */
export function formatSessionDiff(result: SessionDiff, color: boolean): string {
	const c = paint(color);
	const file = escapeControl(result.file).replace(/\n/g, "\\n");
	if (result.error !== undefined) return failureLine(result.file, result.error, color);
	if (result.changed.length === 0) return "";
	const delta = result.tokenDelta;
	const out = [
		c.bold(
			`═══ ${file}: ${result.changed.length} part${result.changed.length === 1 ? "" : "s"} changed, ${signed(delta)} tokens`,
		),
	];
	const { from, to } = result.virtualized;
	if (from.results !== to.results || from.saved !== to.saved) {
		out.push(`virtualized tool results: ${savingsText(from)} → ${savingsText(to)}`);
	}
	for (const part of result.changed) {
		out.push(
			c.cyan(
				`──── ${part.section}: ${part.tokensFrom} → ${part.tokensTo} tokens (${signed(part.tokensTo - part.tokensFrom)})`,
			),
		);
		out.push(coloredDiff(part.diff, c));
	}
	return `${out.join("\n")}\n\n`;
}

/** The corpus summary as text. */
export function formatSummary(summary: DiffSummary): string {
	const lines = [
		`${summary.sessions} session${summary.sessions === 1 ? "" : "s"}: ${summary.changed} changed, ${summary.unchanged} unchanged${summary.failed > 0 ? `, ${summary.failed} failed` : ""}${summary.warnings > 0 ? `; ${summary.warnings} warning${summary.warnings === 1 ? "" : "s"}` : ""}`,
	];
	const d = summary.tokenDelta;
	if (d !== null) {
		lines.push(
			`token delta per session: min ${signed(d.min)}, median ${signed(d.median)}, max ${signed(d.max)} (total ${signed(d.total)})`,
		);
	}
	const { from, to } = summary.virtualized;
	if (from.results + to.results > 0) {
		lines.push(`virtualized tool results: ${savingsText(from)} → ${savingsText(to)}`);
	}
	return `${lines.join("\n")}\n`;
}

function savingsText(s: Savings): string {
	return `${s.results} (${s.saved.toLocaleString("en-US")} o200k tokens saved)`;
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

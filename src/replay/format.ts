/**
 * What `replay` prints as text: per session, its calls' totals, cost, the
 * fit against the recorded usage and what the second side changes, said
 * with its direction ("with B instead of A"); then the
 * summary over all sessions; then a chart (the calls of a lone session, else
 * one column per session).
 */
import { unitsLabel } from "../measure/units.js";
import { escapeControl, paint } from "../text/terminal.js";
import type { Billed } from "./bill.js";
import type { FamilyCalibration } from "./calibrate.js";
import { chart } from "./chart.js";
import type { Fit } from "./fit.js";
import type { ReplayChange, ReplayTotal, SessionReplay } from "./replay.js";
import type { ReplaySummary } from "./summary.js";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const signed = (n: number) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${int(Math.abs(n))}`;
/** Dollars to the cent, under a dollar to 4 places, under a tenth of a cent to 2 significant digits (never "$0.0000" for a cost that is not nil). */
const dollars = (n: number | null) =>
	n === null
		? "unknown"
		: `$${n.toFixed(n >= 1 ? 2 : n === 0 || n >= 0.001 ? 4 : Math.min(20, 1 - Math.floor(Math.log10(n))))}`;
const signedDollars = (n: number | null) =>
	n === null ? "unknown" : `${n > 0 ? "+" : n < 0 ? "−" : "±"}${dollars(Math.abs(n))}`;
const plural = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? "" : "s"}`;
const percent = (part: number, whole: number) =>
	whole === 0 ? "0%" : `${((100 * part) / whole).toFixed(0)}%`;

/** One session's block; none for a session that failed (its error is the command line's to say). */
export function formatSession(r: SessionReplay, color: boolean): string {
	const c = paint(color);
	const file = escapeControl(r.file).replace(/\n/g, "\\n");
	if (r.error !== undefined) return "";
	const lines = [
		c.bold(`═══ ${file} · set ${escapeControl(r.set)} · ${plural(r.total.calls, "call")}`),
	];
	const unit = unitsLabel(Object.keys(r.units));
	lines.push(`  what-if: ${totalText(r.total, unit)}`);
	lines.push(
		`  billed: ${billedText(r.billed)}${r.subagents.length === 0 ? "" : ` (with ${plural(r.subagents.length, "sub-agent file")})`}`,
	);
	lines.push(`  recorded fit: ${fitText(r.recordedFit)}`);
	if (r.vs !== undefined) {
		lines.push(`  with ${escapeControl(r.vs.set)}: ${totalText(r.vs.total, unit)}`);
		lines.push(`  ${insteadText(r.vs.set, [r.set], r.vs.change, unit)}`);
	}
	return `${lines.join("\n")}\n`;
}

function totalText(t: ReplayTotal, unit: string): string {
	return `context ${int(t.contextTokens)} ${unit}: cached ${int(t.cachedTokens)} (${percent(t.cachedTokens, t.contextTokens)}), new ${int(t.newTokens)}; output ${int(t.outputTokens)}; cost ${dollars(t.cost)}`;
}

/** The bill, in the provider's own tokens (as its usage recorded them). */
function billedText(b: Billed): string {
	return `${plural(b.calls, "call")}: input ${int(b.input)}, cache read ${int(b.cacheRead)}, cache write ${int(b.cacheWrite)}, output ${int(b.output)} tokens as billed; cost ${dollars(b.cost)}`;
}

/**
 * What the second side changes, in words that say which way: `with v2
 * instead of v3: +1,204 o200k tokens (cached +1,100, new +104), +$0.0031`,
 * the change being the second side's figures minus the first's.
 */
function insteadText(b: string, a: readonly string[], d: ReplayChange, unit: string): string {
	const cost = d.cost === null ? "cost unknown" : signedDollars(d.cost);
	return `with ${escapeControl(b)} instead of ${a.map(escapeControl).join(", ")}: ${signed(d.contextTokens)} ${unit} (cached ${signed(d.cachedTokens)}, new ${signed(d.newTokens)}), ${cost}`;
}

function fitText(f: Fit | null): string {
	if (f === null) return "none (no consecutive calls with recorded usage)";
	const corr = f.correlation === null ? "n/a" : f.correlation.toFixed(3);
	const ratio = f.ratio === null ? "n/a" : f.ratio.toFixed(2);
	return `${plural(f.calls, "call-to-call growth")}, correlation ${corr}, median ratio recorded/ours ${ratio}`;
}

/** The summary, then the chart. */
export function formatSummary(
	summary: ReplaySummary,
	results: readonly SessionReplay[],
	color: boolean,
): string {
	const unit = unitsLabel(Object.keys(summary.units));
	const lines = [
		`${plural(summary.sessions, "session")}${summary.failed > 0 ? ` (${summary.failed} failed)` : ""}, ${plural(summary.calls, "call")}: context ${int(summary.contextTokens)} ${unit}, cached ${int(summary.cachedTokens)} (${percent(summary.cachedTokens, summary.contextTokens)}), new ${int(summary.newTokens)}, output ${int(summary.outputTokens)}`,
		`billed: ${billedText(summary.billed)}`,
		`what-if cost: ${dollars(summary.cost)}${summary.cost !== null && summary.costedSessions < summary.sessions - summary.failed ? ` (over the ${plural(summary.costedSessions, "session")} whose every call is priced)` : ""}`,
	];
	for (const [provider, fit] of Object.entries(summary.recordedFit)) {
		lines.push(`recorded fit, ${escapeControl(provider)}: ${fitText(fit)}`);
	}
	if (summary.vs !== undefined) {
		const { set, insteadOf, change } = summary.vs;
		lines.push(insteadText(set, insteadOf, change, unit));
	}
	for (const [name, label] of Object.entries(summary.units)) {
		lines.push(`${escapeControl(name)}: ${escapeControl(label)}`);
	}
	const ok = results.filter((r) => r.error === undefined);
	const lone = ok.length === 1 ? ok[0] : undefined;
	const bars =
		lone !== undefined
			? lone.calls.map((call) => ({ cached: call.cachedTokens, fresh: call.newTokens }))
			: ok.map((r) => ({ cached: r.total.cachedTokens, fresh: r.total.newTokens }));
	const picture = chart(bars, { color, label: lone !== undefined ? "call" : "session" });
	return `${lines.join("\n")}\n${picture === "" ? "" : `\n${picture}`}`;
}

/** What `replay --calibrate` prints: per family, the pairs, the ratio before and after, the factor. */
export function formatCalibration(families: readonly FamilyCalibration[], file: string): string {
	const ratio = (r: number | null) => (r === null ? "–" : r.toFixed(3));
	const lines = [`family            pairs  recorded/ours before  factor  after`];
	for (const f of families) {
		if (f.pairs === 0) continue;
		const factor = f.factor === undefined ? "exact" : String(f.factor);
		lines.push(
			`${escapeControl(f.family).padEnd(16)} ${String(f.pairs).padStart(6)}  ${ratio(f.before).padStart(20)}  ${factor.padStart(6)}  ${ratio(f.after).padStart(5)}`,
		);
	}
	lines.push(`table written to ${escapeControl(file)}`);
	return `${lines.join("\n")}\n`;
}

/**
 * An eval report for people: as text on a terminal (a table per session,
 * then the summary) and as Markdown to paste into a pull request (the same
 * tables and summary, flips listed first). Session text is escaped: a
 * control character never reaches the terminal, a `|` never breaks a row.
 */
import { escapeControl, paint } from "../text/terminal.js";
import type { EvalReport, EvalRun } from "./report.js";

const dollars = (n: number | null) => (n === null ? "unknown" : `$${n.toFixed(n < 1 ? 4 : 2)}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The cells of one run's row: call, set, sample, answer, recorded, same, assertions, cost, latency. */
function cells(run: EvalRun): string[] {
	const answer =
		run.error !== null
			? `error: ${run.error}`
			: run.answer === null
				? ""
				: describeMove(run.answer.text, run.answer.toolCalls);
	const same =
		run.sameAsRecorded === null
			? "–"
			: run.sameAsRecorded.arguments
				? "same"
				: run.sameAsRecorded.tool
					? "same tool"
					: "differs";
	const passed = run.assertions.filter((a) => a.pass).length;
	const checks = run.assertions.length === 0 ? "–" : `${passed}/${run.assertions.length}`;
	return [
		String(run.index),
		run.set,
		String(run.sample),
		answer,
		describeMove(run.recorded.text, run.recorded.toolCalls),
		same,
		checks,
		`${dollars(run.cost)}${run.fromCache ? " (cached)" : ""}`,
		run.latencyMs === null ? "–" : `${run.latencyMs} ms`,
	];
}

const HEAD = ["call", "set", "sample", "answer", "recorded", "same", "asserts", "cost", "latency"];

/** A move in a few words: its tool calls with their arguments cut short, else its text's start. */
export function describeMove(
	text: string,
	toolCalls: readonly { name: string; arguments: unknown }[],
): string {
	const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
	if (toolCalls.length > 0) {
		return toolCalls
			.map((c) => `${c.name}(${clip(JSON.stringify(c.arguments) ?? "", 40)})`)
			.join(", ");
	}
	return text === "" ? "(empty)" : `“${clip(text.replace(/\s+/g, " ").trim(), 50)}”`;
}

/**
 * Every run of the report (both sets), grouped by session in the report's
 * order (the JSON's), each session's in call order, the first set's run of
 * a call and sample before the second's.
 */
function bySession(report: EvalReport): Map<string, EvalRun[]> {
	const out = new Map<string, EvalRun[]>();
	for (const run of [...report.runs, ...(report.vs?.runs ?? [])]) {
		const list = out.get(run.file) ?? [];
		list.push(run);
		out.set(run.file, list);
	}
	for (const runs of out.values()) runs.sort((a, b) => a.index - b.index || a.sample - b.sample);
	return out;
}

function summaryLines(report: EvalReport): string[] {
	const s = report.summary;
	const lines = [
		`model ${report.model}, set ${report.set ?? "(each session's own)"}${report.vs === undefined ? "" : ` vs ${report.vs.set}`}, seed ${report.seed}`,
		`${plural(s.runs, "run")}: ${s.sameTool} same tool as recorded, ${plural(s.errors, "error")}, ${s.fromCache} from the cache`,
		`assertions: ${s.assertions.passed} passed, ${s.assertions.failed} failed`,
	];
	if (report.vs !== undefined) lines.push(`flips: ${s.flips.length}`);
	lines.push(`cost: ${dollars(s.cost)}`);
	if (report.stopped) lines.push(`stopped: ${plural(s.notSent, "request")} not sent`);
	return lines;
}

/** The text report. */
export function formatText(report: EvalReport, color: boolean): string {
	const c = paint(color);
	const out: string[] = [];
	const esc = (s: string) => escapeControl(s).replace(/\n/g, "\\n");
	for (const { file, error } of report.failed)
		out.push(c.bold(`═══ ${esc(file)}`), `  ${esc(error)}`, "");
	for (const [file, runs] of bySession(report)) {
		out.push(
			c.bold(`═══ ${esc(file)} · ${plural(new Set(runs.map((r) => r.index)).size, "call")}`),
		);
		const rows = [HEAD, ...runs.map((r) => cells(r).map(esc))];
		const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
		for (const row of rows)
			out.push(
				`  ${row
					.map((v, i) => v.padEnd(widths[i] ?? 0))
					.join("  ")
					.trimEnd()}`,
			);
		for (const run of runs) {
			for (const a of run.assertions.filter((x) => !x.pass)) {
				out.push(
					`  ${c.red("✗")} call ${run.index} (${esc(run.set)}, sample ${run.sample}): ${esc(a.name)}: ${esc(a.reason)}`,
				);
			}
		}
		out.push("");
	}
	const [a, b] = [report.set ?? "own set", report.vs?.set ?? ""].map(esc);
	for (const f of report.summary.flips) {
		out.push(
			`flip: ${esc(f.file)} call ${f.index} sample ${f.sample}: ${esc(f.a)} (${a}) → ${esc(f.b)} (${b})`,
		);
	}
	out.push(...summaryLines(report).map((l) => c.bold(l)));
	return `${out.join("\n")}\n`;
}

/** The Markdown report. */
export function formatMarkdown(report: EvalReport): string {
	const cell = (s: string) => escapeControl(s).replace(/\|/g, "\\|").replace(/\n/g, " ");
	const out = ["## Eval", "", ...summaryLines(report).map((l) => `- ${cell(l)}`), ""];
	if (report.summary.flips.length > 0) {
		out.push(
			"### Flips",
			"",
			`| session | call | sample | ${cell(report.set ?? "own set")} | ${cell(report.vs?.set ?? "")} |`,
			"| --- | --- | --- | --- | --- |",
		);
		for (const f of report.summary.flips) {
			out.push(`| ${cell(f.file)} | ${f.index} | ${f.sample} | ${cell(f.a)} | ${cell(f.b)} |`);
		}
		out.push("");
	}
	for (const { file, error } of report.failed)
		out.push(`### ${cell(file)}`, "", `Failed: ${cell(error)}`, "");
	for (const [file, runs] of bySession(report)) {
		out.push(
			`### ${cell(file)}`,
			"",
			`| ${HEAD.join(" | ")} |`,
			`| ${HEAD.map(() => "---").join(" | ")} |`,
		);
		for (const run of runs) out.push(`| ${cells(run).map(cell).join(" | ")} |`);
		out.push("");
	}
	return `${out.join("\n")}`;
}

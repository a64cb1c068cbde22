/**
 * An eval's report, as data: per call, per set and per sample, the answer
 * beside what the session recorded, whether it did the same, each
 * assertion's result, its cost, latency and whether it came from the cache;
 * then the flips between the two sets and a summary. What `--format json`
 * prints; the text, markdown and JUnit forms are made from it.
 */
import { type AssertionResult, type AssertTests, checkAnswer } from "./assertions.js";
import type { Answer } from "./client.js";
import { choiceOf, type SameAsRecorded, sameAs } from "./compare.js";
import type { PreparedCall, Recorded } from "./contexts.js";
import { type ModelPrice, usageCost } from "./cost.js";
import type { JobResult } from "./run.js";

/** One request's outcome. */
export interface EvalRun {
	file: string;
	index: number;
	entryId: string;
	set: string;
	sample: number;
	answer: Answer | null;
	recorded: Recorded;
	sameAsRecorded: SameAsRecorded | null;
	assertions: AssertionResult[];
	cost: number | null;
	latencyMs: number | null;
	fromCache: boolean;
	error: string | null;
}

/** A call whose chosen tool (or text-only answer) differs between the sets, for one sample. */
export interface Flip {
	file: string;
	index: number;
	sample: number;
	/** What the first set's answer chose: its tools' names, or `(text)`. */
	a: string;
	b: string;
}

/** The totals of a run. */
export interface EvalSummary {
	runs: number;
	errors: number;
	fromCache: number;
	/** Runs that called the same tools as recorded. */
	sameTool: number;
	assertions: { passed: number; failed: number };
	/** What this run's requests cost (answers from the cache cost nothing now); null when the model has no price. */
	cost: number | null;
	flips: Flip[];
	/** Requests not made because the run was stopped. */
	notSent: number;
}

/** The whole report. */
export interface EvalReport {
	model: string;
	/** The first set, as asked for (null: each session's own). */
	set: string | null;
	seed: number;
	runs: EvalRun[];
	vs?: { set: string; runs: EvalRun[] };
	/** Sessions that could not be read or rendered, with their located error. */
	failed: { file: string; error: string }[];
	summary: EvalSummary;
	/** Whether the run was stopped before every request was made. */
	stopped: boolean;
}

/** What the report is made from. */
export interface ReportInput {
	model: string;
	sets: { label: string | null }[];
	seed: number;
	samples: number;
	calls: readonly PreparedCall[];
	/** Index for index with {@link jobOrder}'s jobs. */
	results: readonly (JobResult | undefined)[];
	tests: AssertTests;
	price: ModelPrice | undefined;
	failed: { file: string; error: string }[];
	stopped: boolean;
}

/** The jobs of `calls` in order: call by call, set by set, sample by sample. */
export function jobOrder<T>(
	calls: readonly PreparedCall[],
	samples: number,
	make: (call: PreparedCall, side: number, sample: number) => T,
): T[] {
	const out: T[] = [];
	for (const call of calls) {
		call.requests.forEach((_, side) => {
			for (let s = 0; s < samples; s++) out.push(make(call, side, s));
		});
	}
	return out;
}

/** The report of a run. */
export function buildReport(input: ReportInput): EvalReport {
	const sides: EvalRun[][] = input.sets.map(() => []);
	let notSent = 0;
	let spent = 0;
	let at = 0;
	for (const call of input.calls) {
		call.requests.forEach((request, side) => {
			for (let sample = 0; sample < input.samples; sample++) {
				const result = input.results[at++];
				if (result === undefined) {
					notSent++;
					continue;
				}
				const run = runOf(call, request.set, sample, result, input);
				if (run.cost !== null && !run.fromCache) spent += run.cost;
				sides[side]?.push(run);
			}
		});
	}
	const [runs = [], other] = sides;
	const all = sides.flat();
	const flips = other === undefined ? [] : flipsOf(runs, other);
	const checks = all.flatMap((r) => r.assertions);
	const report: EvalReport = {
		model: input.model,
		set: input.sets[0]?.label ?? null,
		seed: input.seed,
		runs,
		failed: input.failed,
		summary: {
			runs: all.length,
			errors: all.filter((r) => r.error !== null).length + input.failed.length,
			fromCache: all.filter((r) => r.fromCache).length,
			sameTool: all.filter((r) => r.sameAsRecorded?.tool === true).length,
			assertions: {
				passed: checks.filter((c) => c.pass).length,
				failed: checks.filter((c) => !c.pass).length,
			},
			cost: input.price === undefined ? null : spent,
			flips,
			notSent,
		},
		stopped: input.stopped,
	};
	if (other !== undefined) report.vs = { set: input.sets[1]?.label ?? "", runs: other };
	return report;
}

function runOf(
	call: PreparedCall,
	set: string,
	sample: number,
	result: JobResult,
	input: ReportInput,
): EvalRun {
	const answer = result.answer ?? null;
	const same = answer === null ? null : sameAs(answer.toolCalls, call.recorded.toolCalls);
	return {
		file: call.file,
		index: call.index,
		entryId: call.entryId,
		set,
		sample,
		answer,
		recorded: call.recorded,
		sameAsRecorded: same,
		assertions: checkAnswer(input.tests, call.index, answer ?? undefined, same, result.error),
		cost:
			answer === null || input.price === undefined ? null : usageCost(input.price, answer.usage),
		latencyMs: result.latencyMs,
		fromCache: result.fromCache,
		error: result.error ?? null,
	};
}

/** The calls whose choice differs between `a` and `b`, sample by sample (both answered). */
export function flipsOf(a: readonly EvalRun[], b: readonly EvalRun[]): Flip[] {
	const key = (r: EvalRun) => `${r.file}\u0000${r.index}\u0000${r.sample}`;
	const other = new Map(b.map((r) => [key(r), r]));
	const out: Flip[] = [];
	for (const run of a) {
		const twin = other.get(key(run));
		if (run.answer === null || twin === undefined || twin.answer === null) continue;
		const ca = choiceOf(run.answer.toolCalls);
		const cb = choiceOf(twin.answer.toolCalls);
		if (ca !== cb) out.push({ file: run.file, index: run.index, sample: run.sample, a: ca, b: cb });
	}
	return out;
}

/** Whether the run should fail a CI job: an assertion failed, a call erred, a session failed, or it stopped. */
export function failed(report: EvalReport): boolean {
	const s = report.summary;
	return s.errors > 0 || s.assertions.failed > 0 || report.stopped;
}

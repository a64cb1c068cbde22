/**
 * An eval from start to end: the chosen calls' requests prepared for every
 * session (a session that cannot be read is listed, the others go on), the
 * cost estimate said before anything is sent and held to `maxCost`, the key
 * asked for only when some request is not in the cache, the loop, and the
 * report. `dryRun` stops after the estimate with the requests, as
 * `--dry-run` writes them (dry-run.ts).
 */
import { basename } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { PRICE_DATABASE, type Prices } from "../replay/prices.js";
import type { TokenizerName } from "../text/tokenizer.js";
import type { ToolDefinition } from "../view/tools-manifest.js";
import type { AssertTests } from "./assertions.js";
import { cacheKey, ResponseCache } from "./cache.js";
import type { CallSelection } from "./calls.js";
import { createSender } from "./client.js";
import type { EvalSide, PreparedCall } from "./contexts.js";
import { modelPrice, requestBound, usageCost } from "./cost.js";
import type { DryRequest } from "./dry-run.js";
import { type PreparedSession, type PrepareInit, prepareHere } from "./prepare.js";
import { buildReport, type EvalReport, jobOrder } from "./report.js";
import { type Job, runJobs } from "./run.js";
import type { ModelChoice } from "./settings.js";

/** The key variable of each provider. */
export const KEY_VARIABLES = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY" } as const;

/** Everything an eval is given. */
export interface EvalOptions {
	files: readonly string[];
	model: ModelChoice;
	/** The set to ask with, then (`--vs`) the one to compare it to. */
	sides: readonly EvalSide[];
	selection: CallSelection;
	seed: number;
	samples: number;
	maxTokens: number;
	temperature?: number;
	manifest?: readonly ToolDefinition[];
	tests: AssertTests;
	prices: Prices;
	maxCost?: number;
	concurrency: number;
	/** The cache folder; undefined: no cache. */
	cacheDir?: string;
	dryRun: boolean;
	baseUrl?: string;
	/** The provider's key (from the environment); needed only when a request is sent. */
	apiKey?: string;
	timeoutMs?: number;
	maxRetries?: number;
	strict?: boolean;
	/** How a request's input tokens are counted, for the estimate. */
	tokenizer: TokenizerName;
	/**
	 * Prepares the sessions' requests, results in file order (the command
	 * line's spreads them over threads, `--jobs`); default: here, in order.
	 */
	prepare?: (files: readonly string[], init: PrepareInit) => Promise<PreparedSession[]>;
	signal: AbortSignal;
	/** A line for stderr (the estimate, the tools' origin). */
	say: (line: string) => void;
	/** After each request. */
	progress?: (state: { done: number; total: number; errors: number; dollars: number }) => void;
}

/** What an eval gives: the report, or with `dryRun` the requests. */
export type EvalOutcome =
	| {
			dryRun: true;
			requests: DryRequest[];
			failed: { file: string; error: string }[];
			diagnostics: Diagnostic[];
	  }
	| { dryRun: false; report: EvalReport; diagnostics: Diagnostic[] };

/** Runs an eval. */
export async function runEval(o: EvalOptions): Promise<EvalOutcome> {
	const settings = {
		model: o.model,
		maxTokens: o.maxTokens,
		...(o.temperature === undefined ? {} : { temperature: o.temperature }),
		...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
	};
	const init: PrepareInit = {
		sides: o.sides,
		settings,
		...(o.manifest === undefined ? {} : { manifest: o.manifest }),
		selection: o.selection,
		seed: o.seed,
		tokenizer: o.tokenizer,
		strict: o.strict === true,
		dryRun: o.dryRun,
		...(o.prices.overrides === undefined ? {} : { prices: o.prices.overrides }),
	};
	const sessions = await (o.prepare ?? prepareHere)(o.files, init);
	const calls: PreparedCall[] = sessions.flatMap((s) => s.calls);
	const dry: DryRequest[] = sessions.flatMap((s) => s.dry ?? []);
	const failed = sessions.flatMap((s) =>
		s.error === undefined ? [] : [{ file: s.file, error: s.error }],
	);
	const diagnostics: Diagnostic[] = sessions.flatMap((s) => s.diagnostics);
	const idle = sessions.filter(
		(s) => s.error === undefined && s.calls.length === 0 && (s.dry ?? []).length === 0,
	);
	if (idle.length > 0) {
		const named = idle.slice(0, 3).map((s) => basename(s.file));
		const more = idle.length > 3 ? `, and ${idle.length - 3} more` : "";
		o.say(
			`${idle.length} session(s) with no model call to ask (${named.join(", ")}${more}): left out`,
		);
	}
	const asked = new Set([...calls, ...dry].map((c) => c.index));
	for (const test of o.tests) {
		const none = (test.calls ?? []).filter((i) => !asked.has(i));
		if (none.length > 0 && !o.dryRun)
			o.say(
				`assertions: the test ${JSON.stringify(test.name)} names call ${none.join(", ")}, which no session asks about (--calls): it checks nothing there`,
			);
	}
	if (o.manifest === undefined && calls.length + dry.length > 0) {
		o.say("no --tools FILE: each request declares the session's tools, with an open object schema");
	}
	if (o.dryRun) {
		sayEstimate(o, dry.length, undefined, estimateOf(o, dry));
		return { dryRun: true, requests: dry, failed, diagnostics };
	}
	const jobs = jobOrder(calls, o.samples, (call, side, sample) => {
		const request = call.requests[side] as PreparedCall["requests"][number];
		return {
			call,
			request,
			job: { key: cacheKey(o.model, o.baseUrl, request.body, sample), body: request.body } as Job,
		};
	});
	const cache = o.cacheDir === undefined ? undefined : new ResponseCache(o.cacheDir);
	const toAsk = jobs.filter((j) => cache?.get(j.job.key) === undefined);
	const cached = jobs.length - toAsk.length;
	const estimate = estimateOf(
		o,
		toAsk.map((j) => j.request),
	);
	sayEstimate(o, jobs.length, cached, estimate);
	const toSend = jobs.length - cached;
	if (o.maxCost !== undefined && toSend > 0) {
		if (estimate.dollars === null) {
			throw new ContextError(
				"max_cost",
				`no price for model ${o.model.model} in ${o.prices.overrides === undefined ? PRICE_DATABASE : `${o.prices.overrides.file} or ${PRICE_DATABASE}`}: the run cannot be held to --max-cost; nothing sent`,
			);
		}
		if (estimate.dollars > o.maxCost) {
			throw new ContextError(
				"max_cost",
				`the estimate, at most $${estimate.dollars.toFixed(4)}, is over --max-cost $${o.maxCost}; nothing sent (fewer calls, a lower --max-tokens, or a higher cap)`,
			);
		}
	}
	if (toSend > 0 && (o.apiKey === undefined || o.apiKey === "")) {
		throw new ContextError(
			"missing_key",
			`${KEY_VARIABLES[o.model.provider]} is not set: the ${o.model.provider} key is read from the environment only`,
		);
	}
	const price = modelPrice(o.prices, o.model);
	let errors = 0;
	let dollars = 0;
	const results = await runJobs(
		jobs.map((j) => j.job),
		{
			send: () =>
				createSender({
					provider: o.model.provider,
					apiKey: o.apiKey ?? "",
					...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
					...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
					...(o.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
				}),
			cache,
			concurrency: o.concurrency,
			signal: o.signal,
			progress: (done, result) => {
				if (result.error !== undefined) errors++;
				if (result.answer !== undefined && !result.fromCache && price !== undefined) {
					dollars += usageCost(price, result.answer.usage);
				}
				o.progress?.({ done, total: jobs.length, errors, dollars });
			},
		},
	);
	const report = buildReport({
		model: `${o.model.provider}:${o.model.model}`,
		sets: o.sides.map((s) => ({ label: s.label ?? s.version ?? null })),
		seed: o.seed,
		samples: o.samples,
		calls,
		results,
		tests: o.tests,
		price,
		failed,
		stopped: o.signal.aborted,
	});
	return { dryRun: false, report, diagnostics };
}

/** The estimate: the input tokens of the requests to send, and the most they can cost. */
function estimateOf(
	o: EvalOptions,
	requests: readonly { inputTokens: number }[],
): { tokens: number; dollars: number | null } {
	const price = modelPrice(o.prices, o.model);
	let tokens = 0;
	let dollars = 0;
	for (const { inputTokens } of requests) {
		tokens += inputTokens;
		if (price !== undefined) dollars += requestBound(price, inputTokens, o.maxTokens);
	}
	return { tokens, dollars: price === undefined ? null : dollars };
}

/** The estimate's line: the requests (those the cache holds, unless a dry run), tokens, dollars. */
function sayEstimate(
	o: EvalOptions,
	requests: number,
	cached: number | undefined,
	estimate: { tokens: number; dollars: number | null },
): void {
	o.say(
		`${requests} request${requests === 1 ? "" : "s"}${cached === undefined ? "" : ` (${cached} in the cache)`}, ${estimate.tokens.toLocaleString("en-US")} input tokens to send; estimate: ${estimate.dollars === null ? `unknown (no price for ${o.model.model})` : `at most $${estimate.dollars.toFixed(4)}`}`,
	);
}

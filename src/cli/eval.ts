/** `theway-context eval`: what a template change does to the model's next move, on real sessions. */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import { type AssertTests, parseAssertions } from "../eval/assertions.js";
import { defaultCacheDir } from "../eval/cache.js";
import { parseCalls, randomSeed } from "../eval/calls.js";
import { DEFAULT_TIMEOUT_MS, MAX_RETRIES } from "../eval/client.js";
import type { EvalSide } from "../eval/contexts.js";
import { KEY_VARIABLES, runEval } from "../eval/eval.js";
import { formatMarkdown, formatText } from "../eval/format.js";
import { formatJunit } from "../eval/junit.js";
import { type EvalReport, failed } from "../eval/report.js";
import { parseModel } from "../eval/settings.js";
import { ioError } from "../log/read.js";
import { Prices, readPrices } from "../replay/prices.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { loadTokenizer } from "../text/tokenizer.js";
import { checkSide, displayPath, sessionFiles } from "./corpus.js";
import {
	choiceOption,
	defineCommand,
	HELP_OPTION,
	type Io,
	PRETTY_HELP,
	PRETTY_OPTION,
	printDiagnostic,
	printJson,
	templatesOption,
} from "./io.js";
import { vsSide } from "./replay.js";
import { baseUrlOption, manifestOption, samplingOptions } from "./request-options.js";
import { usageError } from "./usage.js";

/** `eval --help`. */
export const EVAL_USAGE = `Usage: theway-context eval <session.jsonl|DIR>... --model <provider>:<model-id> [options]

Asks a model again at calls of real sessions: for each chosen call (an
assistant message of the active branch, numbered as replay numbers them),
the context the compiler gives at that point (the bundle ending at the
message's parent, as render --leaf gives it) under the set named, sent to
the model; its answer is reported beside what the session did. With --vs,
the same under a second set, and the flips: calls whose chosen tool (or
text-only answer) differs between the sets. Claude Code and Codex sessions
are read directly.

Options:
  --model P:ID             anthropic:<model> (Messages API) or openai:<model>
                           (Chat Completions); the key comes from
                           ANTHROPIC_API_KEY or OPENAI_API_KEY
  --base-url URL           the SDK's base URL (Anthropic's without /v1,
                           OpenAI's with it: http://localhost:11434/v1 for
                           Ollama); default: ANTHROPIC_BASE_URL or
                           OPENAI_BASE_URL, else the provider's own
  --template-version V     ask with set V, whatever the sessions pin
  --templates DIR          the templates folder (default: the bundled templates/)
  --vs V|DIR               the same calls under a second set (a set of the
                           templates folder, or another templates folder)
  --calls WHICH            last (default), all, 3,7,12 (call indices) or
                           sample:N (N calls per session, picked with --seed)
  --seed S                 the seed of sample:N (default: a random one; the
                           report prints it, so a run can be repeated)
  --samples K              ask K times per call and set (default 1), to see
                           how much the answer varies
  --assert FILE            assertions (YAML): tests: [{name, calls?, assert:
                           [{type, value}]}]; see docs/eval.md
  --tools FILE             the tool definitions (JSON or YAML list of names or
                           {name, description, parameters}); default: the
                           session's tools with an open object schema
  --max-tokens N           the output cap of each request (default 4096)
  --temperature T          the sampling temperature (default: the provider's)
  --max-cost DOLLARS       refuse to send when the estimate is over it
  --prices FILE            a price table (YAML, $ per million tokens) checked
                           before the bundled price database
  --concurrency N          requests at a time (default 4)
  --cache DIR              the response cache (default: $XDG_CACHE_HOME/
                           theway-context/eval, else ~/.cache/theway-context/eval)
  --no-cache               neither read nor write the cache
  --dry-run                print every request body ({"requests": [...]}) and
                           the estimate; send nothing
  --format text|json|junit|markdown
                           text (default): a table per session and a summary;
                           json: the report; junit: a test case per assertion
                           per call; markdown: a report for a pull request
  --out FILE               write the report to FILE instead of standard output
  --strict                 refuse damaged input with a located error
  --lenient                the default (kept as an alias)
${PRETTY_HELP}
  --quiet                  do not print warnings
  -h, --help               this help

Requests are retried by the SDK ${MAX_RETRIES} times on 408, 409, 429, 5xx, a
dropped connection or a timeout (${DEFAULT_TIMEOUT_MS / 60_000} minutes per attempt),
with backoff honouring retry-after; a call that still fails is reported with
its error and the run goes on. Ctrl-C stops sending and writes the report
of what was answered.

Exit codes: 0 every call answered and every assertion passed; 1 an
assertion failed, a call or a session failed, the run was stopped, or the
estimate is over --max-cost; 2 wrong usage.
`;

const OPTIONS = {
	model: { type: "string" },
	"base-url": { type: "string" },
	"template-version": { type: "string" },
	templates: { type: "string" },
	vs: { type: "string" },
	calls: { type: "string" },
	seed: { type: "string" },
	samples: { type: "string" },
	assert: { type: "string" },
	tools: { type: "string" },
	"max-tokens": { type: "string" },
	temperature: { type: "string" },
	"max-cost": { type: "string" },
	prices: { type: "string" },
	concurrency: { type: "string" },
	cache: { type: "string" },
	"no-cache": { type: "boolean" },
	"dry-run": { type: "boolean" },
	format: { type: "string" },
	out: { type: "string" },
	strict: { type: "boolean" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	...PRETTY_OPTION,
	...HELP_OPTION,
} as const;

/** The `eval` command. */
export const evalCommand = defineCommand(
	OPTIONS,
	EVAL_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length === 0) throw usageError("missing <session.jsonl|DIR>", EVAL_USAGE);
		if (values.model === undefined)
			throw usageError("missing --model <provider>:<model-id>", EVAL_USAGE);
		const model = asUsage(() => parseModel(values.model as string));
		const format = choiceOption(
			values.format,
			"format",
			["text", "json", "junit", "markdown"],
			EVAL_USAGE,
		);
		const selection = asUsage(() => parseCalls(values.calls ?? "last"));
		const seed = wholeOption(values.seed, "seed", 0) ?? randomSeed();
		const samples = wholeOption(values.samples, "samples", 1) ?? 1;
		const concurrency = wholeOption(values.concurrency, "concurrency", 1) ?? 4;
		const maxCost = values["max-cost"] === undefined ? undefined : Number(values["max-cost"]);
		if (maxCost !== undefined && !(Number.isFinite(maxCost) && maxCost >= 0))
			throw usageError("--max-cost must be a number of dollars ≥ 0", EVAL_USAGE);
		if (values.cache !== undefined && values["no-cache"] === true)
			throw usageError("--cache and --no-cache say opposite things: give one", EVAL_USAGE);
		const sampling = samplingOptions(values, EVAL_USAGE);
		const baseUrl = baseUrlOption(values["base-url"], model.provider, process.env, EVAL_USAGE);
		const templates = templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR;
		const version = values["template-version"];
		const sides: EvalSide[] = [version === undefined ? { templates } : { templates, version }];
		if (values.vs !== undefined) sides.push(vsSide(values.vs, templates, io.cwd));
		const files = positionals.flatMap((p) => sessionFiles(resolve(io.cwd, p)));
		const manifest = manifestOption(values.tools, io);
		const tests = assertionsOption(values.assert, io);
		const table =
			values.prices === undefined ? undefined : readPrices(resolve(io.cwd, values.prices));
		if (values.quiet !== true) for (const d of table?.warnings ?? []) printDiagnostic(io, d);
		const prices = new Prices(table);
		for (const side of sides) await checkSide(side);
		const say = (line: string) => {
			if (values.quiet !== true || /estimate/.test(line)) io.stderr(`eval: ${line}\n`);
		};
		say(`seed ${seed}`);
		const controller = new AbortController();
		const stop = () => controller.abort();
		process.once("SIGINT", stop);
		const tty = io.stderrIsTTY === true;
		try {
			const outcome = await runEval({
				files,
				model,
				sides,
				selection,
				seed,
				samples,
				...sampling,
				...(manifest === undefined ? {} : { manifest }),
				tests,
				prices,
				...(maxCost === undefined ? {} : { maxCost }),
				concurrency,
				...(values["no-cache"] === true
					? {}
					: {
							cacheDir:
								values.cache === undefined
									? defaultCacheDir(process.env)
									: resolve(io.cwd, values.cache),
						}),
				dryRun: values["dry-run"] === true,
				...(baseUrl === undefined ? {} : { baseUrl }),
				...keyOf(model.provider),
				strict: values.strict === true,
				tokenizer: await loadTokenizer("o200k"),
				signal: controller.signal,
				say,
				...(tty
					? {
							progress: ({ done, total, errors, dollars }) =>
								io.stderr(
									`\reval: ${done}/${total} requests, ${errors} error${errors === 1 ? "" : "s"}, $${dollars.toFixed(4)}`,
								),
						}
					: {}),
			});
			if (tty && !outcome.dryRun) io.stderr("\r\u001b[K");
			if (values.quiet !== true) for (const d of outcome.diagnostics) printDiagnostic(io, d);
			if (outcome.dryRun) {
				const requests = outcome.requests.map((r) => ({ ...r, file: displayPath(r.file, io.cwd) }));
				for (const f of outcome.failed) {
					io.stderr(`eval: ${escapeControl(f.error)}\n`);
				}
				write(io, values.out, { requests }, "json", values.pretty === true);
				return outcome.failed.length > 0 ? 1 : 0;
			}
			const report = shown(outcome.report, io.cwd);
			if (report.stopped)
				say(
					`stopped: ${report.summary.notSent} requests not sent; the answers so far are in the report and the cache`,
				);
			write(io, values.out, report, format, values.pretty === true);
			return failed(report) ? 1 : 0;
		} finally {
			process.off("SIGINT", stop);
		}
	},
);

/** The key of `provider`, from the environment only. */
function keyOf(provider: keyof typeof KEY_VARIABLES): { apiKey?: string } {
	const key = process.env[KEY_VARIABLES[provider]];
	return key === undefined || key === "" ? {} : { apiKey: key };
}

/** The report with its paths shown from the working directory. */
function shown(report: EvalReport, cwd: string): EvalReport {
	const path = (file: string) => displayPath(file, cwd);
	const runs = (list: EvalReport["runs"]) => list.map((r) => ({ ...r, file: path(r.file) }));
	return {
		...report,
		runs: runs(report.runs),
		...(report.vs === undefined ? {} : { vs: { ...report.vs, runs: runs(report.vs.runs) } }),
		failed: report.failed.map((f) => ({ ...f, file: path(f.file) })),
		summary: {
			...report.summary,
			flips: report.summary.flips.map((f) => ({ ...f, file: path(f.file) })),
		},
	};
}

function write(
	io: Io,
	out: string | undefined,
	value: unknown,
	format: string,
	pretty: boolean,
): void {
	const report = value as EvalReport;
	const color = out === undefined && io.stdoutIsTTY === true;
	if (out === undefined && format === "json") {
		printJson(io, value, { pretty });
		return;
	}
	const text =
		format === "json"
			? `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`
			: format === "junit"
				? formatJunit(report)
				: format === "markdown"
					? formatMarkdown(report)
					: formatText(report, color);
	if (out === undefined) {
		io.stdout(text);
		return;
	}
	const path = resolve(io.cwd, out);
	try {
		writeFileSync(path, text);
	} catch (error) {
		throw ioError(path, error, "cannot write the report");
	}
}

function assertionsOption(file: string | undefined, io: Io): AssertTests {
	if (file === undefined) return [];
	const path = resolve(io.cwd, file);
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw ioError(path, error, "cannot read the assertions file");
	}
	return parseAssertions(text, path);
}

/** A whole-number option ≥ `min`; undefined when not given. */
function wholeOption(value: string | undefined, flag: string, min: number): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!/^\d+$/.test(value) || n < min)
		throw usageError(`--${flag} must be a whole number ≥ ${min}`, EVAL_USAGE);
	return n;
}

/** An option's own check, its error a usage error. */
function asUsage<T>(read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof ContextError) throw usageError(error.reason, EVAL_USAGE);
		throw error;
	}
}

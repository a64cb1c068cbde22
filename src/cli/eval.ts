/** `theway-context eval`: what a template change does to the model's next move, on real sessions. */
import { closeSync, openSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import { type AssertTests, parseAssertions } from "../eval/assertions.js";
import { defaultCacheDir } from "../eval/cache.js";
import { parseCalls, randomSeed } from "../eval/calls.js";
import type { EvalSide } from "../eval/contexts.js";
import type { DryRequest } from "../eval/dry-run.js";
import { KEY_VARIABLES, runEval } from "../eval/eval.js";
import { formatMarkdown, formatText } from "../eval/format.js";
import { formatJunit } from "../eval/junit.js";
import { createTask } from "../eval/prepare.js";
import { type EvalReport, failed } from "../eval/report.js";
import { parseModel } from "../eval/settings.js";
import { ioError } from "../log/read.js";
import { Prices, readPrices } from "../replay/prices.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeJsonControl } from "../text/terminal.js";
import { defineCommand } from "./command.js";
import { EVAL } from "./commands/eval.js";
import { checkSide, corpusFiles, displayPath } from "./corpus.js";
import { checkNotRead, checkWritable, type Io, printJson, readOptionFile } from "./io.js";
import { commandTask, runPool } from "./pool.js";
import { vsSide } from "./replay.js";
import { baseUrlOption, samplingOptions } from "./request-options.js";
import { writeAll } from "./stdio.js";
import { readToolsOption } from "./tools-option.js";
import { usageError } from "./usage.js";
import { printFailures, printWarnings } from "./voice.js";

/** The work on one session, for the pool's worker threads (which load this command's bundle). */
export { createTask } from "../eval/prepare.js";

const TASK = commandTask("eval", new URL("../eval/prepare.js", import.meta.url), createTask);

/** The `eval` command. */
export const evalCommand = defineCommand(EVAL, async ({ values, positionals }, io) => {
	const model = asUsage(() => parseModel(values.model as string));
	const { format, samples, concurrency, jobs } = values;
	const selection = asUsage(() => parseCalls(values.calls));
	const seed = values.seed ?? randomSeed();
	const maxCost = values["max-cost"];
	const sampling = samplingOptions(values);
	const baseUrl = baseUrlOption(values["base-url"], model.provider, process.env);
	const templates = values.templates ?? DEFAULT_TEMPLATES_DIR;
	const version = values["template-version"];
	const sides: EvalSide[] = [version === undefined ? { templates } : { templates, version }];
	if (values.vs !== undefined) sides.push(vsSide(values.vs, templates, io.cwd));
	const files = corpusFiles(positionals, io.cwd);
	const manifest = await readToolsOption(values.tools);
	const tests = assertionsOption(values.assert);
	const table = values.prices === undefined ? undefined : readPrices(values.prices);
	printWarnings(io, table?.warnings ?? [], values.quiet);
	const prices = new Prices(table);
	for (const [i, side] of sides.entries())
		await checkSide(side, i === 0 ? "--template-version" : "--vs");
	const say = (line: string) => {
		if (!values.quiet || /estimate/.test(line)) io.stderr(`eval: ${line}\n`);
	};
	say(`seed ${seed}`);
	const controller = new AbortController();
	const stop = () => controller.abort();
	process.once("SIGINT", stop);
	const tty = io.stderrIsTTY === true;
	// Before anything is sent: a report that could not be written would be lost after paying for it.
	if (values.out !== undefined) {
		checkNotRead("--out", resolve(io.cwd, values.out), files);
		checkWritable(values.out, "cannot write the report");
	}
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
			...(values["no-cache"] ? {} : { cacheDir: values.cache ?? defaultCacheDir(process.env) }),
			dryRun: values["dry-run"],
			...(baseUrl === undefined ? {} : { baseUrl }),
			...keyOf(model.provider),
			strict: values.strict,
			tokenizer: "o200k",
			prepare: (list, init) => runPool(TASK, list, { init, jobs, minItemsPerThread: 1 }),
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
		printWarnings(io, outcome.diagnostics, values.quiet);
		if (outcome.dryRun) {
			printFailures(io, outcome.failed);
			writeDryRun(io, values.out, outcome.requests);
			return outcome.failed.length > 0 ? 1 : 0;
		}
		const report = shown(outcome.report, io.cwd);
		if (report.stopped)
			say(
				`stopped: ${report.summary.notSent} requests not sent; the answers so far are in the report and the cache`,
			);
		write(io, values.out, report, format, values.pretty);
		return failed(report) ? 1 : 0;
	} finally {
		process.off("SIGINT", stop);
	}
});

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
	const path = out;
	try {
		writeFileSync(path, text);
	} catch (error) {
		throw ioError(path, error, "cannot write the report");
	}
}

/**
 * `--dry-run`'s requests, one JSON line each, to `out` or stdout, a line
 * at a time (never the whole output as one string); on a terminal, C1
 * controls and bidirectional overrides escaped as JSON escapes them.
 */
function writeDryRun(io: Io, out: string | undefined, requests: readonly DryRequest[]): void {
	const fd = out === undefined ? undefined : openOut(out);
	const raw = out !== undefined || io.stdoutIsPipeOrFile === true;
	try {
		for (const request of requests) {
			const line = `${JSON.stringify({ ...request, file: displayPath(request.file, io.cwd) })}\n`;
			if (fd === undefined) io.stdout(raw ? line : escapeJsonControl(line));
			else writeAll(fd, line);
		}
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function openOut(path: string): number {
	try {
		return openSync(path, "w");
	} catch (error) {
		throw ioError(path, error, "cannot write the report");
	}
}

function assertionsOption(path: string | undefined): AssertTests {
	if (path === undefined) return [];
	return parseAssertions(readOptionFile(path, "the assertions file"), path);
}

/** An option's own check, its error a usage error. */
function asUsage<T>(read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof ContextError) throw usageError(error.reason);
		throw error;
	}
}

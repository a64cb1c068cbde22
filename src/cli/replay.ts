/** `theway-context replay`: what every model call of a session costs, cached and uncached. */
import { existsSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextError } from "../errors.js";
import { ioError } from "../log/read.js";
import { calibrate, uncalibrated } from "../replay/calibrate.js";
import { formatCalibration, formatSession, formatSummary } from "../replay/format.js";
import { createTask, type ReplayInit } from "../replay/pool.js";
import { PRICE_DATABASE, readPrices } from "../replay/prices.js";
import type { ReplaySide } from "../replay/replay.js";
import { summarize } from "../replay/summary.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { checkSide, displayPath, isDirectory, sessionFiles, showResult } from "./corpus.js";
import {
	choiceOption,
	defineCommand,
	HELP_OPTION,
	PRETTY_HELP,
	PRETTY_OPTION,
	printDiagnostic,
	printJson,
	templatesOption,
} from "./io.js";
import { runPool } from "./pool.js";
import { TOKENIZER_HELP, unitsOption } from "./units-option.js";
import { usageError } from "./usage.js";

export { createTask } from "../replay/pool.js";

/** The command's bundle when built (it exports the task, and starts faster), else the task's own module. */
const BUNDLE = new URL("./replay.cjs", import.meta.url);
const TASK = {
	module: existsSync(fileURLToPath(BUNDLE))
		? BUNDLE
		: new URL("../replay/pool.js", import.meta.url),
	create: createTask,
};

/** `replay --help`. */
export const REPLAY_USAGE = `Usage: theway-context replay <session.jsonl|DIR>... [options]

Replays every model call of a session (each assistant message on the active
branch, in order): the context the compiler gives at that point, in tokens
(as inspect counts it), the prefix it shares with the previous call's
context (cached) and the rest (new), the output and the usage the log
recorded, and the cost at the call's model's price. Checks the token model
against the recorded usage (the growth of the context from call to call,
every tool result whole, against the growth of the recorded prompt).
DIR is searched for .jsonl files; folders are replayed on every core.

Options:
  --template-version V     replay with set V, whatever the session pins
  --templates DIR          the templates folder (default: the bundled templates/)
  --vs V|DIR               the same calls under a second set (a set of the
                           templates folder, or another templates folder),
                           and the change in tokens and cost
${TOKENIZER_HELP}
  --calibrate FILE         fit the table's estimates on these sessions' recorded
                           usage and write the table to FILE (for --tokenizer FILE)
  --prices FILE            a price table (YAML, $ per million tokens) checked
                           before the bundled price database
  --format text|json       text (default): totals, fit and a chart; json:
                           {"sessions": [...], "summary": {...}}
  --jobs N                 worker threads (default: one per core)
  --strict                 refuse damaged input with a located error (by default,
                           damaged lines are skipped and repairs made, each one
                           listed on stderr, as pi reads them)
  --lenient                the default (kept as an alias)
${PRETTY_HELP}
  --quiet                  do not print warnings
  -h, --help               this help

Exit codes: 0 done, 1 a session failed to load (the others are replayed),
2 wrong usage.
`;

const OPTIONS = {
	"template-version": { type: "string" },
	templates: { type: "string" },
	vs: { type: "string" },
	tokenizer: { type: "string" },
	calibrate: { type: "string" },
	prices: { type: "string" },
	format: { type: "string" },
	jobs: { type: "string" },
	strict: { type: "boolean" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	...PRETTY_OPTION,
	...HELP_OPTION,
} as const;

/** The `replay` command. */
export const replayCommand = defineCommand(
	OPTIONS,
	REPLAY_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length === 0) throw usageError("missing <session.jsonl|DIR>", REPLAY_USAGE);
		const format = choiceOption(values.format, "format", ["text", "json"], REPLAY_USAGE);
		let units = unitsOption(values.tokenizer, io, REPLAY_USAGE);
		const table = "table" in units ? units.table : undefined;
		if (values.calibrate !== undefined) {
			if (table === undefined)
				throw usageError(
					"--calibrate fits a table: give --tokenizer auto or a table FILE",
					REPLAY_USAGE,
				);
			units = uncalibrated(table);
		}
		const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
		if (!Number.isInteger(jobs) || jobs < 1)
			throw usageError("--jobs must be a whole number ≥ 1", REPLAY_USAGE);
		const templates = templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR;
		const version = values["template-version"];
		const side: ReplaySide = version === undefined ? { templates } : { templates, version };
		const vs = values.vs === undefined ? undefined : vsSide(values.vs, templates, io.cwd);
		const prices =
			values.prices === undefined ? undefined : readPrices(resolve(io.cwd, values.prices));
		if (values.quiet !== true) for (const d of prices?.warnings ?? []) printDiagnostic(io, d);
		const files = positionals.flatMap((p) => sessionFiles(resolve(io.cwd, p)));
		await checkSide(side);
		if (vs !== undefined) await checkSide(vs);

		const progress =
			io.stderrIsTTY === true && files.length > 1
				? (done: number) => io.stderr(`\rreplay: ${done}/${files.length} sessions`)
				: undefined;
		const init: ReplayInit = {
			side,
			...(vs === undefined ? {} : { vs }),
			units,
			...(prices === undefined ? {} : { prices }),
			strict: values.strict === true,
		};
		const results = await runPool(TASK, files, {
			init,
			jobs,
			...(progress === undefined ? {} : { progress }),
		});
		if (progress !== undefined) io.stderr("\r\u001b[K");
		for (const r of results) {
			showResult(r, io.cwd);
			r.subagents = r.subagents.map((f) => displayPath(f, io.cwd));
		}
		if (values.quiet !== true) {
			for (const r of results) for (const d of r.notes.diagnostics) printDiagnostic(io, d);
		}
		if (values.calibrate !== undefined && table !== undefined) {
			const out = resolve(io.cwd, values.calibrate);
			const fitted = calibrate(results, table, new Date().toISOString().slice(0, 10));
			try {
				writeFileSync(out, `${JSON.stringify(fitted.table, null, "\t")}\n`);
			} catch (error) {
				throw ioError(out, error, "cannot write the tokenizer table");
			}
			io.stdout(formatCalibration(fitted.families, out));
			return results.some((r) => r.error !== undefined) ? 1 : 0;
		}
		const summary = summarize(results);
		for (const model of values.quiet === true ? [] : summary.unpriced) {
			io.stderr(
				`replay: no price for model ${JSON.stringify(escapeControl(model))} in ${escapeControl(prices === undefined ? PRICE_DATABASE : `${prices.file} or ${PRICE_DATABASE}`)}: its calls' cost is null (give a table with --prices)\n`,
			);
		}
		if (format === "json") {
			printJson(
				io,
				{
					sessions: results.map((r) => ({
						file: r.file,
						set: r.set,
						calls: r.calls,
						total: r.total,
						recordedFit: r.recordedFit,
						units: r.units,
						billed: r.billed,
						...(r.subagents.length === 0 ? {} : { subagents: r.subagents }),
						...(r.vs === undefined ? {} : { vs: r.vs }),
						...(r.error === undefined ? {} : { error: r.error }),
					})),
					summary,
				},
				{ pretty: values.pretty === true },
			);
		} else {
			const color = io.stdoutIsTTY === true;
			for (const r of results)
				(r.error === undefined ? io.stdout : io.stderr)(formatSession(r, color));
			io.stdout(`\n${formatSummary(summary, results, color)}`);
		}
		return summary.failed > 0 ? 1 : 0;
	},
);

/** `--vs`: a templates folder when the argument names one, else a set of `templates` (eval takes it too). */
export function vsSide(arg: string, templates: string, cwd: string): ReplaySide {
	const path = resolve(cwd, arg);
	if ((arg.includes("/") || arg.startsWith(".")) && !isDirectory(path)) {
		throw new ContextError("io", "templates folder not found", { file: path });
	}
	if (isDirectory(path) && !/^v\d+$/.test(arg)) return { templates: path, label: arg };
	return { templates, version: arg };
}

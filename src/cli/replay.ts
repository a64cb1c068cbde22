/** `theway-context replay`: what every model call of a session costs, cached and uncached. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ioError } from "../log/read.js";
import { calibrate, uncalibrated } from "../replay/calibrate.js";
import { formatCalibration, formatSession, formatSummary } from "../replay/format.js";
import { createTask, type ReplayInit } from "../replay/pool.js";
import { PRICE_DATABASE, readPrices, unusedPrices } from "../replay/prices.js";
import type { ReplaySide } from "../replay/replay.js";
import { summarize } from "../replay/summary.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { defineCommand } from "./command.js";
import { REPLAY } from "./commands/replay.js";
import {
	checkRevisionSide,
	checkSide,
	corpusFiles,
	displayPath,
	showResult,
	sideOf,
} from "./corpus.js";
import { checkNotRead, checkWritable, type Io, printJson } from "./io.js";
import type { Parsed } from "./options.js";
import { commandTask, runPool } from "./pool.js";
import type { RevisionFolder } from "./revision.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { unitsOption } from "./units-option.js";
import { usageError } from "./usage.js";
import { printFailures, printWarnings, warn } from "./voice.js";

export { createTask } from "../replay/pool.js";

const TASK = commandTask("replay", new URL("../replay/pool.js", import.meta.url), createTask);

/** The `replay` command. */
export const replayCommand = defineCommand(REPLAY, async (parsed, io) => {
	const taken: RevisionFolder[] = [];
	try {
		return await replay(parsed, io, taken);
	} finally {
		for (const t of taken) t.remove();
	}
});

/** The command's body; a revision `--vs` names is read into `taken`, for the caller to remove. */
async function replay(
	{ values, positionals }: Parsed<typeof REPLAY.options>,
	io: Io,
	taken: RevisionFolder[],
): Promise<number> {
	const { format, jobs } = values;
	let units = unitsOption(values.tokenizer, io);
	const table = "table" in units ? units.table : undefined;
	const calibration =
		values.calibrate === undefined ? undefined : resolve(io.cwd, values.calibrate);
	if (calibration !== undefined) {
		if (table === undefined)
			throw usageError("--calibrate fits a table: give --tokenizer auto or a table FILE");
		units = uncalibrated(table);
		checkWritable(calibration, "cannot write the tokenizer table");
	}
	const templates = values.templates ?? DEFAULT_TEMPLATES_DIR;
	const version = values["template-version"];
	const side: ReplaySide = version === undefined ? { templates } : { templates, version };
	const vs =
		values.vs === undefined ? undefined : sideOf("--vs", values.vs, templates, io.cwd, taken);
	const prices = values.prices === undefined ? undefined : readPrices(values.prices);
	printWarnings(io, prices?.warnings ?? [], values.quiet);
	const files = corpusFiles(positionals, io.cwd);
	if (calibration !== undefined) checkNotRead("--calibrate", calibration, files);
	await checkSide(side, "--template-version");
	if (vs !== undefined) await checkRevisionSide(vs, "--vs", taken);

	const progress =
		io.stderrIsTTY === true && files.length > 1
			? (done: number) => io.stderr(`\rreplay: ${done}/${files.length} sessions`)
			: undefined;
	const init: ReplayInit = {
		side,
		...(vs === undefined ? {} : { vs }),
		units,
		...(prices === undefined ? {} : { prices }),
		strict: values.strict,
		...toolsView(await readToolsOption(values.tools)),
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
	for (const r of results) printWarnings(io, r.notes.diagnostics, values.quiet);
	if (prices !== undefined && results.some((r) => r.error === undefined))
		printWarnings(
			io,
			unusedPrices(
				prices,
				results.flatMap((r) => r.notes.priced),
			),
			values.quiet,
		);
	// Each session that could not be replayed is said on stderr, whatever the format of the report.
	printFailures(io, results);
	if (calibration !== undefined && table !== undefined) {
		const out = calibration;
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
	for (const model of values.quiet ? [] : summary.unpriced) {
		warn(
			io,
			`no price for model ${JSON.stringify(model)} in ${prices === undefined ? PRICE_DATABASE : `${prices.file} or ${PRICE_DATABASE}`}: its calls' cost is null (give a table with --prices)`,
		);
	}
	if (format === "json" && !values.summary) {
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
			{ pretty: values.pretty },
		);
	} else if (format === "json") {
		printJson(io, { summary }, { pretty: values.pretty });
	} else {
		const color = io.stdoutIsTTY === true;
		if (!values.summary) for (const r of results) io.stdout(formatSession(r, color));
		io.stdout(`${values.summary ? "" : "\n"}${formatSummary(summary, results, color)}`);
	}
	return summary.failed > 0 ? 1 : 0;
}

/** `--vs` as eval takes it: a set of `templates` or a templates folder. */
export function vsSide(arg: string, templates: string, cwd: string): ReplaySide {
	return sideOf("--vs", arg, templates, cwd);
}

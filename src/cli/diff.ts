/** `theway-context diff`: what a template change does to real sessions. */
import { resolve } from "node:path";
import type { SessionDiff, Side } from "../measure/compare.js";
import { formatGroups, groupHunks } from "../measure/diff-groups.js";
import { formatSessionDiff, formatSummary, summarize } from "../measure/diff-report.js";
import { formatStat } from "../measure/diff-stat.js";
import type { UnitsSpec } from "../measure/units.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { defineCommand } from "./command.js";
import { DIFF } from "./commands/diff.js";
import { checkSide, isDirectory, sessionFiles, showResult } from "./corpus.js";
import { compareAll } from "./diff-pool.js";
import { type Io, printJson } from "./io.js";
import { type RevisionFolder, templatesAtRevision } from "./revision.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { unitsOption } from "./units-option.js";
import { usageError } from "./usage.js";
import { printFailures, printWarnings } from "./voice.js";

/** The work on one session, for the pool's worker threads (which load this command's bundle). */
export { createTask } from "./diff-worker.js";

export const diffCommand = defineCommand(DIFF, async ({ values, positionals }, io) => {
	const { format, jobs } = values;
	const units = unitsOption(values.tokenizer, io);
	const from = values.from as string;
	const to = values.to as string;
	const templates = values.templates ?? DEFAULT_TEMPLATES_DIR;
	const taken: RevisionFolder[] = [];
	try {
		const sides = {
			from: side("--from", from, templates, io.cwd, taken),
			to: side("--to", to, templates, io.cwd, taken),
		};
		const files = positionals.flatMap((p) => sessionFiles(resolve(io.cwd, p)));
		await checkSide(sides.from, "--from");
		await checkSide(sides.to, "--to");
		return await compareSides(files, sides.from, sides.to, format, units, jobs, values, io);
	} finally {
		for (const t of taken) t.remove();
	}
});

/** Compares `files` between the two sides and prints the result. */
async function compareSides(
	files: string[],
	from: Side,
	to: Side,
	format: "text" | "json",
	units: UnitsSpec,
	jobs: number,
	values: {
		strict: boolean;
		"exit-code": boolean;
		quiet: boolean;
		pretty: boolean;
		stat: boolean;
		full: boolean;
		tools: string | undefined;
	},
	io: Io,
): Promise<number> {
	const progress =
		io.stderrIsTTY === true && files.length > 1
			? (done: number) => io.stderr(`\rdiff: ${done}/${files.length} sessions`)
			: undefined;
	const results = await compareAll(
		files,
		{ from, to, units, strict: values.strict, ...toolsView(await readToolsOption(values.tools)) },
		jobs,
		progress,
	);
	if (progress !== undefined) io.stderr("\r\u001b[K");
	for (const r of results) showResult(r, io.cwd);
	for (const r of results) printWarnings(io, r.warnings, values.quiet);
	const summary = summarize(results);
	if (format === "json") {
		printJson(
			io,
			{
				sessions: results.map((r) => ({
					file: r.file,
					...(r.sets === undefined ? {} : { sets: r.sets }),
					changed: r.changed.map(({ section, tokensFrom, tokensTo, framing }) => ({
						section,
						...(framing === undefined ? {} : { framing }),
						tokensFrom,
						tokensTo,
					})),
					virtualized: r.virtualized,
					warnings: r.warnings.length,
					...(r.error === undefined ? {} : { error: r.error }),
				})),
				summary,
			},
			{ pretty: values.pretty },
		);
	} else {
		const color = io.stdoutIsTTY === true;
		const { full } = values;
		printFailures(io, results);
		const [lone] = results;
		if (values.stat) io.stdout(formatStat(results, color));
		else if (results.length === 1 && lone?.error === undefined)
			io.stdout(formatSessionDiff(lone as SessionDiff, color, full));
		// Over several sessions, each hunk once, with the sessions that show it.
		else if (results.length > 1) io.stdout(formatGroups(groupHunks(results), color, full));
		io.stdout(formatSummary(summary));
	}
	if (summary.failed > 0) return 1;
	return values["exit-code"] && summary.changed > 0 ? 1 : 0;
}

/**
 * A side: a templates folder when the argument names one, a set of
 * `templates` when it is a set's name (`v2`), else a git revision (`HEAD`,
 * `main:templates`), whose templates folder is read into `taken`.
 */
function side(
	option: string,
	arg: string,
	templates: string,
	cwd: string,
	taken: RevisionFolder[],
): Side {
	const path = resolve(cwd, arg);
	if (/^v\d+$/.test(arg)) return { templates, version: arg };
	if (isDirectory(path)) return { templates: path };
	if (arg.startsWith(".") || arg.startsWith("/")) {
		throw usageError(`${option} ${path}: no such templates folder`);
	}
	const folder = templatesAtRevision(arg, templates, cwd, option);
	taken.push(folder);
	return { templates: folder.templates };
}

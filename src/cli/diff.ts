/** `theway-context diff`: what a template change does to real sessions. */
import { ContextError } from "../errors.js";
import type { SessionDiff, Side } from "../measure/compare.js";
import { formatGroups, groupHunks, namedFew } from "../measure/diff-groups.js";
import { formatSessionDiff, formatSummary, summarize } from "../measure/diff-report.js";
import { formatStat } from "../measure/diff-stat.js";
import type { UnitsSpec } from "../measure/units.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { TemplateRegistry } from "../templates/registry.js";
import { escapeControl } from "../text/terminal.js";
import { defineCommand } from "./command.js";
import { DIFF } from "./commands/diff.js";
import { checkSide, corpusFiles, type NamedSide, showResult, sideOf } from "./corpus.js";
import { compareAll } from "./diff-pool.js";
import { type Io, printJson } from "./io.js";
import { atRevision, type RevisionFolder } from "./revision.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { unitsOption } from "./units-option.js";
import { printDiagnostic, printFailures, printWarnings } from "./voice.js";

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
			from: sideOf("--from", from, templates, io.cwd, taken),
			to: sideOf("--to", to, templates, io.cwd, taken),
		};
		const files = corpusFiles(positionals, io.cwd);
		const unbuilt = [
			await buildSide(sides.from, "--from", from, taken, io),
			await buildSide(sides.to, "--to", to, taken, io),
		].filter((e): e is string => e !== undefined);
		const revisions = { taken, unbuilt };
		return await compareSides(files, sides, format, units, jobs, values, revisions, io);
	} finally {
		for (const t of taken) t.remove();
	}
});

/**
 * A side's set built once, before any session (checkSide): a set of the
 * working tree that does not build stops the diff. A revision's set this
 * version cannot build is reported once, at the revision's paths
 * (`HEAD~9:templates/v2/stub.hbs:14:3`), and the diff goes on: the sessions
 * that render with that set fail, the others are compared. Returns the
 * error those sessions will give, shown so.
 */
async function buildSide(
	side: NamedSide,
	option: string,
	arg: string,
	taken: readonly RevisionFolder[],
	io: Io,
): Promise<string | undefined> {
	const revision = taken.find((t) => t.templates === side.templates);
	try {
		await checkSide(side, option);
		return undefined;
	} catch (error) {
		if (revision === undefined || !(error instanceof ContextError) || error.code === "usage")
			throw error;
		const shown = atRevision(error, revision);
		for (const d of shown.diagnostics.length > 0 ? shown.diagnostics : [shown.toDiagnostic()])
			printDiagnostic(io, d);
		io.stderr(
			`diff: ${option} ${escapeControl(arg)}: this version cannot build its set ${setOf(side)} (the error above): the sessions that render with it are not compared, the others are\n`,
		);
		return shown.message;
	}
}

/** The set a side renders an unpinned session with, for a message. */
function setOf(side: NamedSide): string {
	try {
		return side.version ?? new TemplateRegistry(side.templates).newest();
	} catch {
		return "(none)";
	}
}

/** Compares `files` between the two sides and prints the result. */
async function compareSides(
	files: string[],
	{ from, to }: { from: Side; to: Side },
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
	revisions: { taken: readonly RevisionFolder[]; unbuilt: readonly string[] },
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
	for (const r of results) {
		for (const t of revisions.taken) if (r.error !== undefined) r.error = t.shown(r.error);
		showResult(r, io.cwd);
	}
	// The sessions a revision's unbuilt set failed, as one line (its error was printed once).
	const unbuilt = results.filter(
		(r) => r.error !== undefined && revisions.unbuilt.includes(r.error),
	);
	for (const r of results) printWarnings(io, r.warnings, values.quiet);
	// Each session that could not be compared is said on stderr, whatever the format of the report.
	printFailures(
		io,
		results.filter((r) => !unbuilt.includes(r)),
	);
	if (unbuilt.length > 0) {
		const n = unbuilt.length;
		io.stderr(
			`diff: ${n} session${n === 1 ? "" : "s"} not compared (${n === 1 ? "its" : "their"} set above cannot be built): ${escapeControl(namedFew(unbuilt.map((r) => r.file)))}\n`,
		);
	}
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

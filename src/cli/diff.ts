/** `theway-context diff`: what a template change does to real sessions. */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import type { SessionDiff, Side } from "../measure/compare.js";
import { formatGroups, groupHunks } from "../measure/diff-groups.js";
import { formatSessionDiff, formatSummary, summarize } from "../measure/diff-report.js";
import type { UnitsSpec } from "../measure/units.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { checkSide, isDirectory, sessionFiles, showResult } from "./corpus.js";
import { compareAll } from "./diff-pool.js";
import {
	choiceOption,
	defineCommand,
	HELP_OPTION,
	type Io,
	PRETTY_HELP,
	PRETTY_OPTION,
	printJson,
	printWarnings,
	templatesOption,
} from "./io.js";
import { type RevisionFolder, templatesAtRevision } from "./revision.js";
import { TOKENIZER_HELP, unitsOption } from "./units-option.js";
import { usageError } from "./usage.js";

/** The work on one session, for the pool's worker threads (which load this command's bundle). */
export { createTask } from "./diff-worker.js";

export const DIFF_USAGE = `Usage: theway-context diff <session.jsonl|DIR>... --from A --to B [options]

Renders every session with template sets A and B and prints the system-prompt
sections and message framings that changed (a unified diff of the text, with
the token delta of each), then a summary over all of them. Over several
sessions, a hunk that several show is printed once, with their number and the
first few names (--format json stays per session).
A and B are each a set of the templates folder (v1, v2), another templates
folder (its sets render each session as they would there), or a git
revision: HEAD, main, HEAD~1 (the templates folder as it was there) or
REV:PATH (main:templates, a folder by its path from the repository's top),
read with git into a temporary folder, the working tree untouched. DIR is
searched for .jsonl files; folders are compared on every core.

Options:
  --from A, --to B         the two sides (a set, a templates folder or a git revision)
  --templates DIR          the folder whose sets --from/--to name (default: bundled)
  --format text|json       text (default); json: {"sessions": [...], "summary": {...}}
  --exit-code              exit 1 when anything changed, as git diff --exit-code
${TOKENIZER_HELP}
  --jobs N                 worker threads (default: one per core)
  --strict                 refuse damaged input with a located error (by default,
                           damaged lines are skipped and repairs made, each one
                           listed on stderr, as pi reads them)
  --lenient                the default (kept as an alias)
${PRETTY_HELP}
  --quiet                  do not print warnings
  -h, --help               this help

Exit codes: 0 done (and, with --exit-code, nothing changed), 1 a session failed
to load or, with --exit-code, something changed, 2 wrong usage.
`;

const OPTIONS = {
	from: { type: "string" },
	to: { type: "string" },
	templates: { type: "string" },
	format: { type: "string" },
	"exit-code": { type: "boolean" },
	tokenizer: { type: "string" },
	jobs: { type: "string" },
	strict: { type: "boolean" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	...PRETTY_OPTION,
	...HELP_OPTION,
} as const;

export const diffCommand = defineCommand(
	OPTIONS,
	DIFF_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length === 0) throw usageError("missing <session.jsonl|DIR>", DIFF_USAGE);
		if (values.from === undefined || values.to === undefined) {
			throw usageError("--from and --to are both required", DIFF_USAGE);
		}
		const format = choiceOption(values.format, "format", ["text", "json"], DIFF_USAGE);
		const units = unitsOption(values.tokenizer, io, DIFF_USAGE);
		const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
		if (!Number.isInteger(jobs) || jobs < 1)
			throw usageError("--jobs must be a whole number ≥ 1", DIFF_USAGE);
		const templates = templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR;
		const taken: RevisionFolder[] = [];
		try {
			const from = side(values.from, templates, io.cwd, taken);
			const to = side(values.to, templates, io.cwd, taken);
			const files = positionals.flatMap((p) => sessionFiles(resolve(io.cwd, p)));
			await checkSide(from);
			await checkSide(to);
			return await compareSides(files, from, to, format, units, jobs, values, io);
		} finally {
			for (const t of taken) t.remove();
		}
	},
);

/** Compares `files` between the two sides and prints the result. */
async function compareSides(
	files: string[],
	from: Side,
	to: Side,
	format: "text" | "json",
	units: UnitsSpec,
	jobs: number,
	values: { strict?: boolean; "exit-code"?: boolean; quiet?: boolean; pretty?: boolean },
	io: Io,
): Promise<number> {
	const progress =
		io.stderrIsTTY === true && files.length > 1
			? (done: number) => io.stderr(`\rdiff: ${done}/${files.length} sessions`)
			: undefined;
	const results = await compareAll(
		files,
		{ from, to, units, strict: values.strict === true },
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
			{ pretty: values.pretty === true },
		);
	} else {
		const color = io.stdoutIsTTY === true;
		if (results.length === 1) {
			const [r] = results as [SessionDiff];
			const text = formatSessionDiff(r, color);
			if (text !== "") (r.error === undefined ? io.stdout : io.stderr)(text);
		} else {
			// Over several sessions, each hunk once, with the sessions that show it.
			for (const r of results) if (r.error !== undefined) io.stderr(formatSessionDiff(r, color));
			io.stdout(formatGroups(groupHunks(results), color));
		}
		io.stdout(formatSummary(summary));
	}
	if (summary.failed > 0) return 1;
	return values["exit-code"] === true && summary.changed > 0 ? 1 : 0;
}

/**
 * A side: a templates folder when the argument names one, a set of
 * `templates` when it is a set's name (`v2`), else a git revision (`HEAD`,
 * `main:templates`), whose templates folder is read into `taken`.
 */
function side(arg: string, templates: string, cwd: string, taken: RevisionFolder[]): Side {
	const path = resolve(cwd, arg);
	if (/^v\d+$/.test(arg)) return { templates, version: arg };
	if (isDirectory(path)) return { templates: path };
	if (arg.startsWith(".") || arg.startsWith("/")) {
		throw new ContextError("io", "templates folder not found", { file: path });
	}
	const folder = templatesAtRevision(arg, templates, cwd);
	taken.push(folder);
	return { templates: folder.templates };
}

/** `theway-context import`: Claude Code and Codex sessions written as session logs of ours. */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { type RecordCount, sumCounts } from "../import/accounting.js";
import { defineCommand } from "./command.js";
import { IMPORT } from "./commands/import.js";
import { isDirectory, sessionFiles } from "./corpus.js";
import { createTask, type ImportJob, type ImportOutcome } from "./import-job.js";
import { commandTask, runPool } from "./pool.js";
import { usageError } from "./usage.js";
import { printDiagnostic } from "./voice.js";

export { createTask } from "./import-job.js";

const TASK = commandTask("import", new URL("./import-job.js", import.meta.url), createTask);

/** A source file and the name of its log, relative to the output folder. */
interface Source {
	file: string;
	name: string;
	/** The folder the file was found in (or given from). */
	root: string;
	/** Whether it was found in a folder given (whose whole tree is the source's). */
	inFolder: boolean;
}

export const importCommand = defineCommand(IMPORT, async ({ values, positionals }, io) => {
	const { from, jobs: threads } = values;
	const sources = positionals.flatMap((p) => sourcesOf(resolve(io.cwd, p)));
	const single =
		positionals.length === 1 &&
		sources.length === 1 &&
		!isDirectory(resolve(io.cwd, positionals[0] as string));
	const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
	if (out === undefined && !single) throw usageError("several sessions need --out DIR");
	// One file goes to --out as a file, unless it names a folder (one there, or a trailing slash).
	const toFile =
		single && out !== undefined && !isDirectory(out) && !/[\\/]$/.test(values.out ?? "");
	if (out !== undefined && !toFile && existsSync(out) && !isDirectory(out)) {
		throw usageError(
			`--out ${values.out} is a file: ${single ? "a trailing / names a folder" : "several sessions need a folder"}`,
		);
	}
	const targets = toFile
		? [out]
		: sources.map((s) => (out === undefined ? undefined : join(out, s.name)));
	if (out !== undefined) refuseInsideSource(out, sources, toFile, targets);
	refuseCollisions(sources, targets);
	const jobs: ImportJob[] = sources.map((s, i) => ({
		file: s.file,
		out: targets[i],
		from,
		strict: values.strict,
	}));
	const tty = io.stderrIsTTY === true && jobs.length > 1;
	const outcomes = await runPool(TASK, jobs, {
		init: null,
		jobs: threads,
		progress: (done, total) => {
			if (tty) io.stderr(`\rimport: ${done}/${total} files`);
		},
		// A thread pays for its start (~0.1 s of CPU, and the cores it shares) from this much on.
		size: {
			total: jobs.reduce((sum, j) => sum + sizeOf(j.file), 0),
			perThread: BYTES_PER_THREAD,
		},
	});
	if (tty) io.stderr("\n");
	for (const o of outcomes) {
		if (o.error !== undefined) printDiagnostic(io, o.error);
		else if (!values.quiet) for (const w of o.warnings) printDiagnostic(io, w);
	}
	if (single && out === undefined && outcomes[0]?.text !== undefined) io.stdout(outcomes[0].text);
	const where = out === undefined ? "standard output" : toFile ? out : `${out}${sep}`;
	if (!values.quiet) io.stderr(summary(outcomes, where));
	return outcomes.some((o) => o.error !== undefined) ? 1 : 0;
});

/** The source bytes a worker thread must get to be worth starting (measured: docs/performance.md). */
const BYTES_PER_THREAD = 64 * 1024 * 1024;

function sizeOf(file: string): number {
	try {
		return statSync(file).size;
	} catch {
		return 0; // reported when the job reads it
	}
}

/** The files a positional names: itself, or every .jsonl file under it. */
function sourcesOf(path: string): Source[] {
	if (!isDirectory(path))
		return [{ file: path, name: basename(path), root: dirname(path), inFolder: false }];
	return sessionFiles(path).map((file) => ({
		file,
		name: relative(path, file),
		root: path,
		inFolder: true,
	}));
}

/**
 * An output next to a source file, or inside a source folder, is refused:
 * the import never writes where it reads (a folder below a source file's
 * own is not where it reads). Compared where the paths really lead, through
 * symbolic links: a link to a source's folder, or a log's name that is a
 * link to a source, is where it reads too.
 */
function refuseInsideSource(
	out: string,
	sources: readonly Source[],
	toFile: boolean,
	targets: readonly (string | undefined)[],
): void {
	const target = realLocation(toFile ? dirname(out) : out);
	const files = new Map(sources.map((s) => [realLocation(s.file), s.file]));
	for (const t of targets) {
		const source = t === undefined ? undefined : files.get(realLocation(t));
		if (source !== undefined)
			throw usageError(
				`--out ${out} would write over the source ${source}: write the logs elsewhere`,
			);
	}
	for (const s of sources) {
		const root = realLocation(s.root);
		if (target === root || (s.inFolder && target.startsWith(`${root}${sep}`))) {
			throw usageError(
				`--out ${out} is inside the folder of the source ${s.file}: write the logs elsewhere`,
			);
		}
	}
}

/** Where `path` really is: its nearest existing part with every link followed, then the rest. */
function realLocation(path: string): string {
	let existing = path;
	const rest: string[] = [];
	for (;;) {
		try {
			return join(realpathSync(existing), ...rest);
		} catch {
			const up = dirname(existing);
			if (up === existing) return path;
			rest.unshift(basename(existing));
			existing = up;
		}
	}
}

function refuseCollisions(
	sources: readonly Source[],
	targets: readonly (string | undefined)[],
): void {
	const seen = new Map<string, string>();
	targets.forEach((t, i) => {
		if (t === undefined) return;
		const other = seen.get(t);
		const file = (sources[i] as Source).file;
		if (other !== undefined) throw usageError(`${other} and ${file} would both be written to ${t}`);
		seen.set(t, file);
	});
}

/** The closing lines: sessions by format, failures, records by what became of them. */
export function summary(outcomes: readonly ImportOutcome[], where: string): string {
	const byFormat = new Map<string, number>();
	const total: RecordCount = { mapped: 0, custom: 0, warned: 0 };
	let failed = 0;
	let warnings = 0;
	for (const o of outcomes) {
		if (o.error !== undefined) {
			failed++;
			continue;
		}
		byFormat.set(o.format ?? "?", (byFormat.get(o.format ?? "?") ?? 0) + 1);
		const sum = sumCounts(o.counts);
		total.mapped += sum.mapped;
		total.custom += sum.custom;
		total.warned += sum.warned;
		warnings += o.warnings.length;
	}
	const written = outcomes.length - failed === 0 ? "" : `; written to ${where}`;
	const formats = [...byFormat].map(([f, n]) => `${f} ${n}`).join(", ");
	return `import: ${outcomes.length - failed} of ${outcomes.length} session(s) imported${formats === "" ? "" : ` (${formats})`}, ${failed} failed; records: ${total.mapped} mapped, ${total.custom} kept as custom, ${total.warned} skipped; ${warnings} warning(s)${written}\n`;
}

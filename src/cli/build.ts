/** `theway-context build`: the build step (`src/check/`), printed for people. */
import { type CheckOptions, runCheck } from "../check/run.js";
import { type WatchRun, watchCheck } from "../check/watch.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { corpusCommand } from "./build-corpus.js";
import { defineCommand } from "./command.js";
import { BUILD } from "./commands/build.js";
import { displayPath } from "./corpus.js";
import type { Io } from "./io.js";
import { diagnosticText, printDiagnostic } from "./voice.js";

export const buildCommand = defineCommand(BUILD, async ({ values }, io) => {
	const templates = values.templates ?? DEFAULT_TEMPLATES_DIR;
	if (values.corpus !== undefined)
		return corpusCommand({ templates, corpus: values.corpus, tools: values.tools }, io);
	const options: CheckOptions = {
		templates,
		fixtures: values.fixtures,
		snapshots: values.snapshots,
		readme: values.readme,
		update: values.update,
		cwd: io.cwd,
	};
	// On every save, each distinct drift once: a change shows in most fixtures.
	if (values.watch) return watchCommand({ ...options, groupDrifts: true }, io);
	const { errors } = runCheck(options, {
		info: (text) => io.stdout(`${escapeControl(text)}\n`),
		diagnostic: (d) => printDiagnostic(io, d),
	});
	if (errors.length === 0) return 0;
	io.stderr(`build: failed, ${errors.length} error${errors.length === 1 ? "" : "s"}\n`);
	return 1;
});

/** `build --watch`: a short line per run, the errors in full; Ctrl-C (SIGINT) ends it with 0. */
function watchCommand(options: CheckOptions, io: Io): Promise<number> {
	const shown = (path: string) => displayPath(path, io.cwd) || ".";
	io.stdout(
		`watching ${shown(options.templates)} (new sets included), categories.yaml, ${shown(options.fixtures)} and ${shown(options.snapshots)} (Ctrl-C to stop)\n`,
	);
	return new Promise((done) => {
		const watcher = watchCheck(options, (run) => printRun(run, io));
		process.once("SIGINT", () => {
			watcher.close();
			io.stdout("\nstopped watching\n");
			done(0);
		});
	});
}

/** One run of the watch, for people: the diagnostics in full, then one short line. */
export function printRun(run: WatchRun, io: Io): void {
	const time = new Date().toTimeString().slice(0, 8);
	const n = run.changed.length;
	const why = n === 0 ? "" : ` after ${n} change${n === 1 ? "" : "s"}`;
	if (run.failure !== undefined) {
		const text =
			run.failure instanceof Error
				? `${escapeControl(run.failure.stack ?? String(run.failure))}\n`
				: diagnosticText(run.failure);
		io.stderr(`[${time}] build could not run${why}:\n${text}`);
		return;
	}
	const errors = run.diagnostics.filter((d) => d.severity === "error").length;
	for (const d of run.diagnostics) printDiagnostic(io, d);
	if (errors > 0) {
		io.stderr(`[${time}] ${errors} error${errors === 1 ? "" : "s"}${why} (${run.ms} ms)\n`);
		return;
	}
	// A snapshot's diff is left to the file; the lock's changes are its few lines.
	const updated = run.info
		.filter((l) => l.startsWith("updated "))
		.map((l) => (/lock\.json:\n/.test(l) ? l : (l.split("\n")[0] as string)))
		.map((l) => l.replace(/^/gm, "  "));
	const fixtures = run.result?.fixtures.length ?? 0;
	const list = updated.length > 0 ? `\n${escapeControl(updated.join("\n"))}` : "";
	io.stdout(
		`[${time}] ok${why}: ${fixtures} fixture${fixtures === 1 ? "" : "s"} checked (${run.ms} ms)${list}\n`,
	);
}

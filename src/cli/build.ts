/** `theway-context build`: the build step (`src/check/`), printed for people. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CheckOptions, runCheck } from "../check/run.js";
import { type WatchRun, watchCheck } from "../check/watch.js";
import { ContextError, formatDiagnostic } from "../errors.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { defineCommand, HELP_OPTION, type Io, printDiagnostic, templatesOption } from "./io.js";

export const BUILD_USAGE = `Usage: theway-context build [--update] [options]

Checks every template set (front-matter, section order, every path, helper
and partial against the view-models) and the versions against the lock,
writes the precompiled sets, then renders every fixture session against its
snapshot and every README example against the real rendering.

Options:
  --update           rewrite the lock (once versions are bumped), the drifted
                     snapshots and README examples, and print what changed
  --templates DIR    the templates folder (default: the bundled templates/)
  --fixtures DIR     fixture sessions (default: ./test/fixtures)
  --snapshots DIR    their snapshots (default: ./snapshots)
  --readme FILE      the README to check (default: ./README.md, if present)
  --watch            check again once saves stop under the templates folder
                     (a set made since included), categories.yaml, the
                     fixtures and the snapshots, until Ctrl-C
  -h, --help         this help
`;

const OPTIONS = {
	update: { type: "boolean" },
	templates: { type: "string" },
	fixtures: { type: "string" },
	snapshots: { type: "string" },
	readme: { type: "string" },
	watch: { type: "boolean" },
	...HELP_OPTION,
} as const;

export const buildCommand = defineCommand(OPTIONS, BUILD_USAGE, async ({ values }, io) => {
	const options: CheckOptions = {
		templates: templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR,
		fixtures: resolve(io.cwd, values.fixtures ?? join("test", "fixtures")),
		snapshots: resolve(io.cwd, values.snapshots ?? "snapshots"),
		readme: resolve(io.cwd, values.readme ?? "README.md"),
		update: values.update === true,
	};
	if (values.fixtures !== undefined && !existsSync(options.fixtures)) {
		// A typo must not turn the check into one that checks nothing.
		throw new ContextError("io", "fixtures folder not found", { file: options.fixtures });
	}
	if (values.watch === true) return watchCommand(options, io);
	const { errors } = runCheck(options, {
		info: (text) => io.stdout(`${escapeControl(text)}\n`),
		diagnostic: (d) => printDiagnostic(io, d),
	});
	if (errors.length === 0) return 0;
	io.stderr(`build failed: ${errors.length} error${errors.length === 1 ? "" : "s"}\n`);
	return 1;
});

/** `build --watch`: a short line per run, the errors in full; Ctrl-C (SIGINT) ends it with 0. */
function watchCommand(options: CheckOptions, io: Io): Promise<number> {
	io.stdout(
		`watching ${escapeControl(options.templates)} (new sets included), categories.yaml, ${escapeControl(options.fixtures)} and ${escapeControl(options.snapshots)} (Ctrl-C to stop)\n`,
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
				? (run.failure.stack ?? String(run.failure))
				: formatDiagnostic(run.failure);
		io.stderr(`[${time}] build could not run${why}:\n${escapeControl(text)}\n`);
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

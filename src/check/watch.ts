/**
 * The build step on every save: the templates folder, the `categories.yaml`
 * beside it and the fixtures are watched; a burst of changes (an editor's
 * save, a checkout) is debounced into one run. A run that fails (a template
 * error, a drifted snapshot, even a bug) is reported and the watch goes on;
 * only {@link Watcher.close} ends it. What the build writes itself (the
 * precompiled sets) does not start a run.
 */
import { existsSync, type FSWatcher, readdirSync, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { type CheckOptions, type CheckResult, runCheck } from "./run.js";

/** What one run reports, once it is over. */
export interface WatchRun {
	/** The run's result; undefined when it could not run (`failure` says why). */
	result?: CheckResult;
	failure?: Diagnostic | Error;
	/** The progress lines of the run (updated snapshots among them). */
	info: string[];
	/** Every diagnostic of the run, warnings included. */
	diagnostics: Diagnostic[];
	/** What set it off: the files that changed (empty for the first run). */
	changed: string[];
	ms: number;
}

export interface Watcher {
	/** Stops watching; a pending run is dropped. */
	close(): void;
}

export interface WatchSettings {
	/** Quiet time before a run, after the last change (default 100 ms). */
	debounceMs?: number;
}

/** Runs the build step now and after every change, until closed. */
export function watchCheck(
	options: CheckOptions,
	onRun: (run: WatchRun) => void,
	settings: WatchSettings = {},
): Watcher {
	const debounce = settings.debounceMs ?? 100;
	const pending = new Set<string>();
	let timer: NodeJS.Timeout | undefined;
	let closed = false;

	const run = () => {
		timer = undefined;
		if (closed) return;
		const changed = [...pending].sort();
		pending.clear();
		const info: string[] = [];
		const diagnostics: Diagnostic[] = [];
		const start = performance.now();
		let outcome: Pick<WatchRun, "result" | "failure">;
		try {
			outcome = {
				result: runCheck(options, {
					info: (t) => info.push(t),
					diagnostic: (d) => diagnostics.push(d),
				}),
			};
		} catch (error) {
			outcome = {
				failure: error instanceof ContextError ? error.toDiagnostic() : (error as Error),
			};
		}
		onRun({ ...outcome, info, diagnostics, changed, ms: Math.round(performance.now() - start) });
	};
	const schedule = (file: string) => {
		if (closed) return;
		pending.add(file);
		if (timer !== undefined) clearTimeout(timer);
		timer = setTimeout(run, debounce);
	};

	// Folders are watched one by one, not recursively: on Linux a recursive
	// watch holds each file's inode and loses a file an editor saves by
	// renaming a new one over it; the folder sees every such rename.
	const watchers: FSWatcher[] = [];
	const add = (dir: string, accept: (name: string) => boolean) => {
		if (!existsSync(dir)) return;
		const w = watch(dir, (_event, name) => {
			const file = name === null ? dir : `${dir}/${name}`;
			if (name === null || accept(name.toString())) schedule(file);
		});
		w.on("error", () => {}); // a watched folder that goes away stops its watcher, not the watch
		watchers.push(w);
	};
	const own = (name: string) => name !== ".compiled";
	for (const dir of folders(options.templates, own)) add(dir, own);
	add(dirname(options.templates), (name) => basename(name) === "categories.yaml");
	for (const dir of folders(options.fixtures, () => true)) {
		add(dir, (name) => name.endsWith(".jsonl") || !name.includes("."));
	}

	timer = setTimeout(run, 0);
	return {
		close() {
			closed = true;
			if (timer !== undefined) clearTimeout(timer);
			for (const w of watchers) w.close();
		},
	};
}

/** `dir` and every folder below it whose name `keep` accepts (none below a refused one). */
function folders(dir: string, keep: (name: string) => boolean): string[] {
	const out: string[] = [];
	const stack = existsSync(dir) ? [dir] : [];
	while (stack.length > 0) {
		const d = stack.pop() as string;
		out.push(d);
		try {
			for (const e of readdirSync(d, { withFileTypes: true })) {
				if (e.isDirectory() && keep(e.name)) stack.push(join(d, e.name));
			}
		} catch {
			// unreadable: watched itself, nothing below
		}
	}
	return out;
}

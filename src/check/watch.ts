/**
 * The build step on every save: the templates folder (a set made after the
 * watch started included), the `categories.yaml` beside it, the fixtures,
 * their snapshots and the README whose examples the build checks are watched; a burst of changes (an editor's save, a
 * checkout, `npm run snapshots` writing the lock, then the snapshots) is
 * settled into one run once writes stop, and a write that comes later starts
 * another. A run that fails (a template error, a drifted snapshot, even a bug)
 * is reported and the watch goes on; only {@link Watcher.close} ends it. What
 * the build writes itself (the precompiled sets, and under `--update` the
 * lock, snapshots and README) does not start a run.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { Watcher as FolderWatcher, type WatchTarget } from "../templates/watch.js";
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
	/** Quiet time before a run, after the last change (default 200 ms). */
	debounceMs?: number;
}

/** What a file is now: its inode, size and time (`-` when it is gone). */
function signature(file: string): string {
	try {
		const s = statSync(file);
		return `${s.ino}:${s.size}:${s.mtimeMs}`;
	} catch {
		return "-";
	}
}

/** The files a run wrote, from its `updated <file>[:line][:]` lines. */
function written(info: readonly string[]): string[] {
	return info
		.filter((l) => l.startsWith("updated "))
		.map((l) => (l.split("\n")[0] as string).slice("updated ".length).replace(/(:\d+)?:?$/, ""));
}

/** Runs the build step now and after every change, until closed. */
export function watchCheck(
	options: CheckOptions,
	onRun: (run: WatchRun) => void,
	settings: WatchSettings = {},
): Watcher {
	/** The files the last run wrote, as it left them: their echo is no change. */
	const own = new Map<string, string>();
	let closed = false;

	const run = (changed: string[]) => {
		if (closed) return;
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
		own.clear();
		for (const file of written(info)) own.set(file, signature(file));
		onRun({ ...outcome, info, diagnostics, changed, ms: Math.round(performance.now() - start) });
	};
	/** A change, unless it is the echo of what the last run wrote. */
	const changedByOthers = (file: string) => {
		const mine = own.get(file);
		if (mine === undefined) return true;
		if (mine === signature(file)) return false;
		own.delete(file);
		return true;
	};
	const watcher = new FolderWatcher(
		() => targets(options),
		(paths) => {
			const changed = paths.filter(changedByOthers).sort();
			if (changed.length > 0) run(changed);
		},
		settings.debounceMs ?? 200,
	);
	const first = setTimeout(() => run([]), 0);
	return {
		close() {
			closed = true;
			clearTimeout(first);
			watcher.close();
		},
	};
}

/**
 * The folders a build depends on, walked anew at every change (so a folder
 * made since, a new set, is followed): the templates folder and its sets
 * (not the precompiled modules the build writes), the `categories.yaml`
 * beside it, the fixtures and their snapshots, the README, and for a folder
 * not made yet (the snapshots before the first update) its parent.
 */
function targets(options: CheckOptions): WatchTarget[] {
	const accepts = new Map<string, ((name: string) => boolean)[]>();
	const want = (dir: string, accept: (name: string) => boolean) =>
		accepts.set(dir, [...(accepts.get(dir) ?? []), accept]);
	const notOwnOutput = (name: string) => name !== ".compiled";
	for (const dir of folders(options.templates, notOwnOutput)) want(dir, notOwnOutput);
	want(dirname(options.templates), (name) => name === "categories.yaml");
	const fixture = (name: string) => name.endsWith(".jsonl") || !name.includes(".");
	for (const dir of folders(options.fixtures, () => true)) want(dir, fixture);
	const snapshot = (name: string) => name.endsWith(".txt") || !name.includes(".");
	for (const dir of folders(options.snapshots, () => true)) want(dir, snapshot);
	const readme = options.readme;
	if (readme !== undefined) want(dirname(readme), (name) => name === basename(readme));
	for (const dir of [options.templates, options.fixtures, options.snapshots]) {
		if (!existsSync(dir)) want(dirname(dir), (name) => name === basename(dir));
	}
	return [...accepts]
		.filter(([dir]) => existsSync(dir))
		.map(([dir, tests]) => ({ dir, accept: (name) => tests.some((t) => t(name)) }));
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

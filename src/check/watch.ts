/**
 * The build step on every save: the templates folder (a set made after the
 * watch started included), the `categories.yaml` beside it, the fixtures and
 * their snapshots are watched; a burst of changes (an editor's save, a
 * checkout, `npm run snapshots` writing the lock, then the snapshots) is
 * settled into one run once writes stop, and a write that comes later starts
 * another. A run that fails (a template error, a drifted snapshot, even a bug)
 * is reported and the watch goes on; only {@link Watcher.close} ends it. What
 * the build writes itself (the precompiled sets, and under `--update` the
 * lock, snapshots and README) does not start a run.
 */
import { existsSync, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
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
	const debounce = settings.debounceMs ?? 200;
	const pending = new Set<string>();
	/** The files the last run wrote, as it left them: their echo is no change. */
	const own = new Map<string, string>();
	let timer: NodeJS.Timeout | undefined;
	let closed = false;

	const run = () => {
		timer = undefined;
		if (closed) return;
		follow(); // a folder made since (a new set) is watched from now on
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
		own.clear();
		for (const file of written(info)) own.set(file, signature(file));
		onRun({ ...outcome, info, diagnostics, changed, ms: Math.round(performance.now() - start) });
	};
	const schedule = (file: string) => {
		if (closed) return;
		const mine = own.get(file);
		if (mine !== undefined) {
			if (mine === signature(file)) return;
			own.delete(file);
		}
		pending.add(file);
		if (timer !== undefined) clearTimeout(timer);
		timer = setTimeout(run, debounce);
	};

	// Folders are watched one by one, not recursively: on Linux a recursive
	// watch holds each file's inode and loses a file an editor saves by
	// renaming a new one over it; the folder sees every such rename. The
	// list of folders is walked again at every change, so a folder made
	// (a set copied in) or removed since is followed.
	const watchers = new Map<string, FSWatcher>();
	/** Each watched folder's tests of the names that count in it. */
	let wanted = new Map<string, ((name: string) => boolean)[]>();
	const accepts = (dir: string, name: string) => wanted.get(dir)?.some((f) => f(name)) === true;
	const add = (dir: string) => {
		if (watchers.has(dir)) return;
		try {
			const w = watch(dir, (_event, name) => {
				const file = name === null ? dir : join(dir, name.toString());
				if (name !== null && !accepts(dir, name.toString())) return;
				if (name !== null && !name.toString().includes(".")) follow();
				schedule(file);
			});
			w.on("error", () => {
				// a watched folder that goes away stops its watcher, not the watch
				w.close();
				watchers.delete(dir);
			});
			watchers.set(dir, w);
		} catch {
			// gone between the walk and the watch: the next walk tells
		}
	};
	const follow = () => {
		if (closed) return;
		const next = new Map<string, ((name: string) => boolean)[]>();
		const want = (dir: string, accept: (name: string) => boolean) =>
			next.set(dir, [...(next.get(dir) ?? []), accept]);
		const notOwnOutput = (name: string) => name !== ".compiled";
		for (const dir of folders(options.templates, notOwnOutput)) want(dir, notOwnOutput);
		want(dirname(options.templates), (name) => name === "categories.yaml");
		const fixture = (name: string) => name.endsWith(".jsonl") || !name.includes(".");
		for (const dir of folders(options.fixtures, () => true)) want(dir, fixture);
		const snapshot = (name: string) => name.endsWith(".txt") || !name.includes(".");
		for (const dir of folders(options.snapshots, () => true)) want(dir, snapshot);
		// A folder not made yet (the snapshots before the first update): its parent tells.
		for (const dir of [options.templates, options.fixtures, options.snapshots]) {
			if (!existsSync(dir)) want(dirname(dir), (name) => name === basename(dir));
		}
		wanted = next;
		for (const dir of next.keys()) if (existsSync(dir)) add(dir);
		for (const [dir, w] of watchers) {
			if (!next.has(dir)) {
				w.close();
				watchers.delete(dir);
			}
		}
	};
	follow();

	timer = setTimeout(run, 0);
	return {
		close() {
			closed = true;
			if (timer !== undefined) clearTimeout(timer);
			for (const w of watchers.values()) w.close();
			watchers.clear();
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

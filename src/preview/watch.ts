/**
 * Watching the files a rendering depends on. Folders are watched rather than
 * files: an editor that saves by writing a new file and renaming it over the
 * old one replaces the inode a file watch would hold, while the folder sees
 * the rename. Bursts of events (one save is often several) are folded into
 * one call after a short quiet time.
 */
import { type FSWatcher, watch } from "node:fs";
import { basename, join } from "node:path";

/** Quiet time after the last event before reporting (a save is often several events). */
export const DEBOUNCE_MS = 40;

export interface WatchTarget {
	/** The folder to watch. */
	dir: string;
	/** Watch the folders below it too. */
	recursive: boolean;
	/** Only events on paths (relative to `dir`) this accepts count; default: all. */
	accept?: (path: string) => boolean;
}

/** A set of folder watches reporting changed paths, debounced. Close it to stop. */
export class Watcher {
	private readonly watchers: FSWatcher[] = [];
	private timer: NodeJS.Timeout | undefined;
	private pending = new Set<string>();

	constructor(
		targets: readonly WatchTarget[],
		private readonly onChange: (paths: string[]) => void,
		private readonly debounceMs = DEBOUNCE_MS,
	) {
		for (const target of targets) {
			let watcher: FSWatcher;
			try {
				watcher = watch(target.dir, { recursive: target.recursive, persistent: false });
			} catch {
				continue; // a folder that cannot be watched (gone, or no permission) only loses liveness
			}
			watcher.on("change", (_event, name) => {
				const path = name === null ? "" : String(name);
				if (target.accept !== undefined && !target.accept(path)) return;
				this.touch(join(target.dir, path));
			});
			watcher.on("error", () => watcher.close());
			this.watchers.push(watcher);
		}
	}

	close(): void {
		clearTimeout(this.timer);
		for (const watcher of this.watchers) watcher.close();
		this.watchers.length = 0;
	}

	private touch(path: string): void {
		this.pending.add(path);
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			const paths = [...this.pending];
			this.pending = new Set();
			this.onChange(paths);
		}, this.debounceMs);
	}
}

/**
 * What the templates of `dir` depend on: every file below it (but the
 * precompiled modules the build writes), and the `categories.yaml` beside it.
 */
export function templateTargets(dir: string, parent: string): WatchTarget[] {
	return [
		{ dir, recursive: true, accept: (path) => !path.split(/[\\/]/).includes(".compiled") },
		{ dir: parent, recursive: false, accept: (path) => basename(path) === "categories.yaml" },
	];
}

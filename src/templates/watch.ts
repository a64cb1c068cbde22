/**
 * Watching the files a rendering depends on (the preview's live reload and
 * `build --watch` share it). Folders are watched, one by one, rather than
 * files: an editor that saves by writing a new file and renaming it over the
 * old one replaces the inode a file watch holds, while the folder sees the
 * rename. (Node's recursive watch on Linux watches files and loses them that
 * way, so it is not used.) Bursts of events (one save is often several) are
 * folded into one call after a short quiet time, and the folders to watch
 * are asked for again then, and at once when a folder appears, so a new set
 * folder is watched from its creation on.
 */
import { type FSWatcher, readdirSync, watch } from "node:fs";
import { basename, join } from "node:path";

/** Quiet time after the last event before reporting (a save is often several events). */
export const DEBOUNCE_MS = 40;

export interface WatchTarget {
	/** The folder to watch (not the folders below it). */
	dir: string;
	/** Only events on names this accepts count; default: all. */
	accept?: (name: string) => boolean;
}

/** Folder watches reporting changed paths, debounced. Close it to stop. */
export class Watcher {
	private readonly watchers = new Map<string, FSWatcher>();
	private timer: NodeJS.Timeout | undefined;
	private pending = new Set<string>();
	private closed = false;

	/**
	 * `targets` is asked again after every batch of changes. `persistent`:
	 * whether the watches alone keep the process alive (`build --watch`; the
	 * preview's server does that itself).
	 */
	constructor(
		private readonly targets: () => readonly WatchTarget[],
		private readonly onChange: (paths: string[]) => void,
		private readonly debounceMs = DEBOUNCE_MS,
		private readonly persistent = true,
	) {
		this.arm();
	}

	close(): void {
		this.closed = true;
		clearTimeout(this.timer);
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
	}

	/** Watches the folders `targets` names now, and no others. */
	private arm(): void {
		if (this.closed) return;
		const wanted = new Map(this.targets().map((t) => [t.dir, t]));
		for (const [dir, watcher] of this.watchers) {
			if (!wanted.has(dir)) {
				watcher.close();
				this.watchers.delete(dir);
			}
		}
		for (const target of wanted.values()) {
			if (this.watchers.has(target.dir)) continue;
			let watcher: FSWatcher;
			try {
				watcher = watch(target.dir, { persistent: this.persistent });
			} catch {
				continue; // a folder that cannot be watched (gone, or no permission) only loses liveness
			}
			watcher.on("change", (_event, name) => {
				const file = name === null ? "" : String(name);
				if (target.accept !== undefined && !target.accept(file)) return;
				// A name without an extension may be a folder just made: watch it before its first edit.
				if (file !== "" && !file.includes(".")) this.arm();
				this.touch(join(target.dir, file));
			});
			watcher.on("error", () => {
				watcher.close();
				this.watchers.delete(target.dir);
			});
			this.watchers.set(target.dir, watcher);
		}
	}

	private touch(path: string): void {
		this.pending.add(path);
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			if (this.closed) return;
			const paths = [...this.pending];
			this.pending = new Set();
			this.arm();
			this.onChange(paths);
		}, this.debounceMs);
	}
}

/**
 * What the templates of `dir` depend on: the folder, each set folder in it
 * (but the precompiled modules the build writes), and the `categories.yaml`
 * beside it.
 */
export function templateTargets(dir: string, parent: string): () => WatchTarget[] {
	return () => {
		const targets: WatchTarget[] = [
			{ dir },
			{ dir: parent, accept: (name) => basename(name) === "categories.yaml" },
		];
		try {
			for (const dirent of readdirSync(dir, { withFileTypes: true })) {
				if (dirent.isDirectory() && !dirent.name.startsWith(".")) {
					targets.push({ dir: join(dir, dirent.name) });
				}
			}
		} catch {
			// The folder is gone: its parent's watch sees it come back.
		}
		return targets;
	};
}

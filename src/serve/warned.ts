/**
 * Which warnings the sidecar already wrote to stderr, per session: a warning
 * is written once per process (the first load that finds it), not at every
 * load, whether or not the load continues a cursor. A replaced file (another
 * inode) starts afresh, so do a closed session and one pushed out of the
 * bound (least recently used out first, as the open sessions are).
 */
import type { FileStamp } from "./cursors.js";

interface Written {
	dev: number;
	ino: number;
	keys: Set<string>;
}

export class WarnedStore {
	private readonly sessions = new Map<string, Written>();

	constructor(private readonly maxSessions: number) {}

	/** The keys of `keys` not yet written for `file` (as `stamp` identifies it), now marked written. */
	fresh(file: string, stamp: FileStamp, keys: readonly string[]): Set<string> {
		let written = this.sessions.get(file);
		if (written === undefined || written.dev !== stamp.dev || written.ino !== stamp.ino) {
			written = { dev: stamp.dev, ino: stamp.ino, keys: new Set() };
		}
		this.sessions.delete(file); // re-inserted last: the most recently used
		this.sessions.set(file, written);
		if (this.sessions.size > this.maxSessions) {
			this.sessions.delete(this.sessions.keys().next().value as string);
		}
		const out = new Set<string>();
		for (const key of keys) {
			if (written.keys.has(key)) continue;
			written.keys.add(key);
			out.add(key);
		}
		return out;
	}

	/** Forgets what was written for `file`. */
	delete(file: string): void {
		this.sessions.delete(file);
	}

	/** Forgets everything (the templates were reloaded: warnings may read differently). */
	clear(): void {
		this.sessions.clear();
	}
}

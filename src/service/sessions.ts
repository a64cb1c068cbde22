/**
 * The sessions a service keeps open: each file's log, read up to date by
 * the next load (only what was appended), least recently loaded out first.
 * A log is read afresh when the file is no longer the one read (replaced,
 * truncated, changed before its end) or when what was appended changed an
 * earlier entry (a rewired tree); why is kept, for the lineage of the
 * messages its first projection begins. A repaired tree is kept as a clean
 * one is. A stream is read once, never kept.
 */
import { readForeign } from "../import/foreign.js";
import { OpenLog, type OpenLogOptions } from "../log/open-log.js";
import { STDIN } from "../log/read.js";
import { SessionTree } from "../session/tree.js";
import type { LineageReason } from "./bundle.js";

export type Session = OpenLog<SessionTree>;

export class OpenSessions {
	private readonly sessions = new Map<string, Session>();
	/** Why each session was read afresh. */
	private readonly opened = new WeakMap<SessionTree, LineageReason>();
	/** Files whose open session was dropped for a reason, until they are read again. */
	private readonly dropped = new Map<string, LineageReason>();

	constructor(
		private readonly options: OpenLogOptions,
		/** How many sessions stay open. */
		private readonly max: number,
	) {}

	/**
	 * The session of `file`, read up to date with blocking reads: the kept
	 * one resumed, or a fresh one (`busy`: an asynchronous read of the file
	 * is in progress, and this read leaves the kept one alone).
	 */
	readSync(file: string, busy = false): Session {
		const open = this.sessions.get(file);
		if (open !== undefined && !busy && this.resumed(file, open, () => open.readSync())) {
			return open;
		}
		const log = this.fresh(file);
		log.readSync();
		this.keep(file, log);
		return log;
	}

	/** {@link readSync}, with the reads asynchronous. */
	async readAsync(file: string): Promise<Session> {
		const open = this.sessions.get(file);
		if (open !== undefined && this.resumed(file, open, await settle(open.read()))) return open;
		const log = this.fresh(file);
		await log.read();
		this.keep(file, log);
		return log;
	}

	/** Why the session of `tree` was read afresh (`opened`: it was not open). */
	reasonOf(tree: SessionTree): LineageReason {
		return this.opened.get(tree) ?? "opened";
	}

	/** The tree of the open session of `file`, if it is open. */
	treeOf(file: string): SessionTree | undefined {
		return this.sessions.get(file)?.sink;
	}

	/** The files kept open, the least recently loaded first. */
	files(): string[] {
		return [...this.sessions.keys()];
	}

	/** Forgets the open session of `file`; the next load reads it whole. */
	close(file: string): void {
		this.sessions.delete(file);
	}

	/** Forgets the open session of `file`, saying why its next read is a fresh one. */
	drop(file: string, reason: LineageReason): void {
		this.sessions.delete(file);
		this.dropped.set(file, reason);
		if (this.dropped.size > this.max)
			this.dropped.delete(this.dropped.keys().next().value as string);
	}

	/**
	 * Whether the kept `log` read what was appended: false when the file is
	 * no longer the one read, or when what was appended changed an earlier
	 * entry.
	 */
	private resumed(file: string, log: Session, read: () => boolean): boolean {
		this.sessions.delete(file); // re-inserted last: the most recently loaded
		if (!read()) {
			this.drop(file, "rewritten");
			return false;
		}
		if (log.sink.rewired) {
			this.drop(file, "repaired");
			return false;
		}
		this.keep(file, log);
		return true;
	}

	private fresh(file: string): Session {
		const strict = this.options.strict === true;
		const log = new OpenLog(file, (entries, name) => new SessionTree(entries, name, strict), {
			foreign: readForeign,
			...this.options,
		});
		this.opened.set(log.sink, this.dropped.get(file) ?? "opened");
		this.dropped.delete(file);
		return log;
	}

	/** Keeps `log` open, forgetting the least recently loaded one past the limit. */
	private keep(file: string, log: Session): void {
		if (file === STDIN || !log.regular) return;
		this.sessions.set(file, log);
		if (this.sessions.size > this.max) {
			this.sessions.delete(this.sessions.keys().next().value as string);
		}
	}
}

/** A promise's outcome as a thunk that returns or throws it. */
async function settle<T>(promise: Promise<T>): Promise<() => T> {
	try {
		const value = await promise;
		return () => value;
	} catch (error) {
		return () => {
			throw error;
		};
	}
}

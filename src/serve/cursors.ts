/**
 * What the sidecar remembers of the replies it gave, so the next `load` can
 * send only what changed. A cursor names one reply: the entry ids of the
 * bundle it was cut from, how many messages the client holds, the template
 * set and format that framed them, and the file it was read from. A later
 * bundle continues a cursor when that file is still the same one (same
 * inode, not shorter), the set and format are the same, and the cursor's
 * entry ids are a prefix of the new ones; anything else is a reset.
 *
 * Bounded: a few cursors per session (a retried request may reuse the one
 * before the last), and sessions least recently used out first.
 */
import { randomBytes } from "node:crypto";
import type { Format } from "./protocol.js";

/** How many cursors of one session stay valid: the latest and the ones just before. */
const CURSORS_PER_SESSION = 4;

/** The identity of a file, to tell an append from a replaced file. */
export interface FileStamp {
	dev: number;
	ino: number;
	size: number;
}

export interface CursorState {
	/** The bundle's entry ids (one per bundle message), as the client last saw them. */
	entryIds: readonly string[];
	/** How many messages the client holds (fewer than `entryIds` when some stay out of an llm context). */
	delivered: number;
	templateFingerprint: string;
	systemPromptHash: string;
	format: Format;
	/** Asked with `virtualize: false`: every tool result whole. */
	whole: boolean;
	file: FileStamp;
	/** Keys of the warnings the client was sent. */
	diagnostics: ReadonlySet<string>;
}

/** Per session (a resolved path), its latest cursors. */
export class CursorStore {
	private readonly sessions = new Map<string, Map<string, CursorState>>();
	/** Distinguishes this process's cursors from another's (a restarted sidecar). */
	private readonly prefix = randomBytes(6).toString("base64url");
	private next = 0;

	constructor(private readonly maxSessions: number) {}

	/** The state behind `cursor` in session `path`, if it is still known. */
	get(path: string, cursor: string): CursorState | undefined {
		return this.sessions.get(path)?.get(cursor);
	}

	/** Records `state` as a new cursor of `path` and returns its name. */
	add(path: string, state: CursorState): string {
		let cursors = this.sessions.get(path);
		if (cursors === undefined) cursors = new Map();
		this.sessions.delete(path); // re-inserted last: the most recently used
		this.sessions.set(path, cursors);
		const name = `${this.prefix}.${(this.next++).toString(36)}`;
		cursors.set(name, state);
		if (cursors.size > CURSORS_PER_SESSION) cursors.delete(cursors.keys().next().value as string);
		if (this.sessions.size > this.maxSessions) {
			this.sessions.delete(this.sessions.keys().next().value as string);
		}
		return name;
	}

	/** Forgets every cursor of `path`; true if there were any. */
	delete(path: string): boolean {
		return this.sessions.delete(path);
	}

	get size(): number {
		return this.sessions.size;
	}
}

/** Whether `after` continues `before`: the same file, grown or not, with its prefix of entries. */
export function continues(
	before: CursorState,
	after: Omit<CursorState, "delivered" | "systemPromptHash" | "diagnostics">,
): boolean {
	if (before.format !== after.format || before.whole !== after.whole) return false;
	if (before.templateFingerprint !== after.templateFingerprint) return false;
	if (before.file.dev !== after.file.dev || before.file.ino !== after.file.ino) return false;
	if (after.file.size < before.file.size) return false;
	const old = before.entryIds;
	const now = after.entryIds;
	if (now.length < old.length) return false;
	for (let i = old.length - 1; i >= 0; i--) if (old[i] !== now[i]) return false;
	return true;
}

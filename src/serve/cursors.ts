/**
 * What the sidecar remembers of the replies it gave, so the next `load` can
 * send only what changed. A cursor names one reply: the lineage of the
 * messages it was cut from and how many there were, how many the client
 * holds, the template set and format that framed them, and the file they
 * were read from. A later bundle continues a cursor only when its messages
 * are the same run of messages grown (the same lineage: the service neither
 * read the file afresh nor projected another branch since), framed alike;
 * anything else is a reset, with its reason.
 *
 * Bounded: a few cursors per session (a retried request may reuse the one
 * before the last), and sessions least recently used out first.
 */
import { randomBytes } from "node:crypto";
import type { Lineage, LineageReason } from "../service/bundle.js";
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
	/** The run of messages the reply was cut from. */
	lineage: Lineage;
	/** How many of the bundle's messages the client's were made from. */
	length: number;
	/** How many messages the client holds (fewer than `length` when some stay out of an llm context). */
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

/**
 * Why a reply cannot continue a cursor: its messages are no longer a prefix
 * of the session's (see docs/sidecar.md for each reason).
 */
export type ResetReason =
	| "unknown_cursor"
	| "format"
	| "templates"
	| "replaced"
	| "rewritten"
	| "repaired"
	| "reopened"
	| "branch"
	| "compaction";

const BY_LINEAGE: Record<LineageReason, ResetReason> = {
	opened: "reopened",
	rewritten: "rewritten",
	repaired: "repaired",
	templates: "templates",
	branch: "branch",
	compaction: "compaction",
};

/**
 * Why `after` does not continue `before`, or undefined when it does: the
 * same framing, and messages of the same lineage (or a client that holds
 * none yet).
 */
export function resetReason(
	before: CursorState,
	after: Pick<
		CursorState,
		"lineage" | "length" | "templateFingerprint" | "format" | "whole" | "file"
	>,
): ResetReason | undefined {
	if (before.format !== after.format || before.whole !== after.whole) return "format";
	if (before.templateFingerprint !== after.templateFingerprint) return "templates";
	if (before.file.dev !== after.file.dev || before.file.ino !== after.file.ino) return "replaced";
	if (before.lineage === after.lineage && after.length >= before.length) return undefined;
	if (before.length === 0) return undefined; // nothing held: anything continues it
	return BY_LINEAGE[after.lineage.reason];
}

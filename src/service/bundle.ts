/**
 * What a load gives: the context bundle (system prompt, messages, what it
 * says of itself) and the options that shape it. Types only, apart from the
 * lineage token that tells a continued branch from a new one.
 */
import type { Diagnostic } from "../errors.js";
import type { MessageList, VirtualizedResult } from "../render/stubs.js";
import type { ContextMessage } from "../session/messages.js";
import type { ModelRef } from "../session/project.js";
import type { TemplateSet } from "../templates/set.js";
import type { ViewOptions } from "../view/derive.js";
import type { SystemView } from "../view/schema.js";

/** One load: the branch, the set, virtualization, and the view's inputs (tools, memory, cwd). */
export interface LoadOptions extends ViewOptions {
	/** Project the branch ending at this entry id instead of the default leaf. */
	leaf?: string;
	/** Render with this template set, whatever the session pins. */
	templateVersion?: string;
	/**
	 * Tool results over the set's threshold reach the model as stubs (default
	 * true, when the set has a `tool-result-stub` template); false: every
	 * result whole, as pi sends it.
	 */
	virtualize?: boolean;
}

/** What a bundle says of itself: the session, the leaf, the set that rendered it, warnings and stubs. */
export interface BundleMeta {
	sessionId: string;
	file: string;
	/** The entry the branch ends at (null for a log with no entries). */
	leafId: string | null;
	/** The template set the system prompt was rendered with, its fingerprint and its templates folder. */
	templateVersion: string;
	templateFingerprint: string;
	templatesDir: string;
	/** The model and thinking level last seen on the branch. */
	model: ModelRef | null;
	thinkingLevel: string | null;
	/** Entries read from the log (the header not counted). */
	entryCount: number;
	/** Warnings: torn last line, unknown entries, skipped lines, cut summaries… */
	diagnostics: Diagnostic[];
	/**
	 * The tool results that reach the model as stubs (`messages` keeps them
	 * whole), with their size and the bytes each saves; empty when the set
	 * does not virtualize or the load was asked not to.
	 */
	virtualized: VirtualizedResult[];
}

/** What a model call needs: the system prompt and the messages. */
export interface ContextBundle {
	systemPrompt: string;
	/**
	 * The branch's messages as stored, summaries included. The array is
	 * frozen, and so is every message in it when the bundle comes from a
	 * service (they are shared with its open session).
	 */
	readonly messages: readonly ContextMessage[];
	/** The id of the log entry each message comes from, index for index with `messages` (frozen). */
	readonly entryIds: readonly string[];
	meta: BundleMeta;
}

/**
 * Why a service's messages for a session are not a continuation of the
 * ones it gave before: it opened the file afresh (`opened`), read it again
 * because it changed before its end (`rewritten`) or because an append
 * changed an earlier entry (`repaired`: a duplicate id, an orphan's
 * parent), rendered it with another set (`templates`), or projected
 * another branch (`branch`) or one under a new summary (`compaction`).
 */
export type LineageReason =
	| "opened"
	| "rewritten"
	| "repaired"
	| "templates"
	| "branch"
	| "compaction";

/**
 * One run of bundles whose messages each extend the last one's: a bundle
 * of the same lineage as an earlier one holds that one's messages, the
 * same objects, as its first messages. Compared by identity.
 */
export class Lineage {
	constructor(
		/** Why this lineage began. */
		readonly reason: LineageReason,
	) {}
}

/** A bundle with what rendered it: the set, the system prompt's view, its lineage, its messages by index. @internal */
export interface Composed {
	bundle: ContextBundle;
	set: TemplateSet;
	view: SystemView;
	lineage: Lineage;
	/** The bundle's messages without building their array: a reply after an append reads only the new ones. */
	list: MessageList;
}

/**
 * The model calls of a session, in order: each assistant message on the
 * active branch, with the context the compiler gives at that point (the
 * branch ending at the message's parent). The log is read once; each call's
 * branch is projected from the one tree, the system prompt is rendered once
 * per set (its view depends on the session's metadata, not on the leaf),
 * and virtualization decisions carry from one call to the next (a message
 * already decided keeps its decision), so a call costs the work of what it
 * adds, not of the whole branch.
 */
import type { Diagnostic } from "../errors.js";
import { readForeign } from "../import/foreign.js";
import { Kind } from "../log/kinds.js";
import { OpenLog, type RecordedCall } from "../log/open-log.js";
import type { Header } from "../log/schema.js";
import { listOf, StubCache, type VirtualizedResult, virtualizeMessages } from "../render/stubs.js";
import { renderSystemPrompt } from "../render/system-prompt.js";
import { PRODUCES_MESSAGE } from "../session/entry-messages.js";
import { freezeMessage } from "../session/freeze.js";
import type { ContextMessage } from "../session/messages.js";
import { projectBranch } from "../session/project.js";
import { NONE, SessionTree } from "../session/tree.js";
import type { TemplateSet } from "../templates/set.js";
import { deriveSummary, deriveSystemView } from "../view/derive.js";
import { importSource, treeCalls } from "./bill.js";

/**
 * One model call: the assistant message that answered, and the context it
 * was asked with. The arrays are shared from one call to the next and only
 * grow while the branch does: this call's context is their first `length`.
 */
export interface CallContext {
	/** 0-based, in branch order. */
	index: number;
	/** The assistant message's entry. */
	entryId: string;
	/** The entry the context ends at (the assistant message's parent). */
	parentId: string;
	/** The assistant message as the log holds it (model, provider, usage). */
	answer: Record<string, unknown>;
	systemPrompt: string;
	messages: readonly ContextMessage[];
	entryIds: readonly string[];
	length: number;
	/** The tool results (below `length`) that reach the model as stubs, by index. */
	stubbed: ReadonlyMap<number, VirtualizedResult>;
	/**
	 * How many leading messages are the previous call's whole context, the
	 * same objects (the branch only grew since); 0 when the context was
	 * projected afresh (then compare to find the shared prefix).
	 */
	grown: number;
}

/** The projected context a call leaves for the next one to grow from. */
interface Context {
	leaf: number;
	compaction: number;
	collapse: number;
	messages: ContextMessage[];
	entryIds: string[];
	listed: VirtualizedResult[];
	stubbed: Map<number, VirtualizedResult>;
}

/** How a session is read and walked. */
export interface WalkOptions {
	/** Refuse damaged input instead of repairing it. */
	strict?: boolean;
	/** The session's tools (the inventory the prompt lists), in place of its tools metadata. */
	tools?: readonly string[];
}

/** A session log read once, to be walked call by call under one or more sets. */
export class SessionWalk {
	private readonly log: OpenLog<SessionTree>;
	/** Tree indices of the assistant messages on the active branch, in order. */
	private readonly answers: number[];
	private readonly projected = new Map<string, Diagnostic>();
	/** The walk's virtualization decisions: each result decided once, whatever the call. */
	private readonly stubs = new StubCache();

	constructor(
		file: string,
		private readonly options: WalkOptions = {},
	) {
		const strict = options.strict === true;
		// Claude Code and Codex files are read as every command reads them: converted in memory.
		this.log = new OpenLog(file, (entries, name) => new SessionTree(entries, name, strict), {
			foreign: readForeign,
			...(options.strict === undefined ? {} : { strict }),
		});
		this.log.readSync();
		this.answers = assistantsOnBranch(this.log.sink);
		const root = branchRoot(this.log.sink);
		if (root !== NONE && this.log.sink.entries.everLetGo) this.log.sink.entries.materialize([root]);
		if (root !== NONE && isAssistant(this.log.sink, root)) {
			const line = this.log.sink.line(root);
			this.projected.set(`answer_without_context:${line}`, {
				code: "answer_without_context",
				severity: "warning",
				message:
					"an assistant message starts the branch (its parent is not in the log): nothing was sent before it, so it is no call of the what-if (its usage is billed)",
				file: this.log.name,
				line,
			});
		}
	}

	/** The log's header. */
	get header(): Header {
		return this.log.header;
	}

	/** The log's name, for messages. */
	get name(): string {
		return this.log.name;
	}

	/** The set the session pins, and the line that pins it. */
	get pin(): { version: string; line?: number } | undefined {
		const tree = this.log.sink;
		const version = tree.metadata.templateVersion;
		if (typeof version !== "string") return undefined;
		const line = tree.metadataLines.templateVersion;
		return line === undefined ? { version } : { version, line };
	}

	/** The warnings of the read and of the projections so far, each once, in line order. */
	diagnostics(): Diagnostic[] {
		const line = (d: Diagnostic) => d.line ?? Number.POSITIVE_INFINITY;
		return [
			...this.log.diagnostics(),
			...this.log.sink.diagnostics.list(),
			...this.projected.values(),
		].sort((a, b) => line(a) - line(b) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
	}

	/**
	 * The calls the file records as billed, every branch and sidechain: the
	 * converter's for a file of another format, else every assistant message.
	 */
	recordedCalls(warn?: (line: number, reason: string) => void): readonly RecordedCall[] {
		return this.log.recordedCalls ?? treeCalls(this.log.sink, this.log.header.timestamp, warn);
	}

	/** The sub-agent ids a Claude Code session names (its `import_source` entry), converted or imported. */
	agentIds(): string[] {
		const list = importSource(this.log.sink)?.subagents;
		if (!Array.isArray(list)) return [];
		return list.flatMap((s) =>
			s !== null && typeof s === "object" && typeof s.agentId === "string" ? [s.agentId] : [],
		);
	}

	/** How many model calls the branch holds. */
	get calls(): number {
		return this.answers.length;
	}

	/**
	 * Each call's context under `set`, in order. A branch that only grew
	 * since the previous call (no compaction, collapse, summary or custom
	 * message on the way) is extended by the new messages, decided for
	 * virtualization alone; anything else is projected afresh, as a load does.
	 */
	*walk(set: TemplateSet): Generator<CallContext> {
		const tree = this.log.sink;
		const systemPrompt = renderSystemPrompt(
			set,
			deriveSystemView(
				this.log.header,
				tree.metadata,
				set,
				this.options.tools === undefined ? {} : { tools: this.options.tools },
			),
		);
		let context: Context | undefined;
		let index = 0;
		for (const at of this.answers) {
			const parent = tree.parent(at);
			const before = context?.messages.length ?? 0;
			const grown = context !== undefined && this.grow(context, parent, set);
			if (!grown) context = this.project(parent, set, context);
			const c = context as Context;
			const answer = (tree.entry(at) as { message?: unknown }).message as Record<string, unknown>;
			yield {
				index: index++,
				entryId: tree.idAt(at),
				parentId: tree.idAt(parent),
				answer,
				systemPrompt,
				messages: c.messages,
				entryIds: c.entryIds,
				length: c.messages.length,
				stubbed: c.stubbed,
				grown: grown ? before : 0,
			};
		}
	}

	/** The context of the branch ending at `leaf`, projected as a load does. */
	private project(leaf: number, set: TemplateSet, previous: Context | undefined): Context {
		const tree = this.log.sink;
		const frame = (summary: string, line: number) => {
			const derived = deriveSummary(summary, set.caps, set.markers);
			const diagnostics = derived.diagnostics.map((d) => ({ ...d, file: this.log.name, line }));
			return { text: derived.text, diagnostics };
		};
		const projection = projectBranch(tree, this.log.header, frame, tree.idAt(leaf));
		for (const d of projection.diagnostics) this.projected.set(`${d.code}:${d.line}`, d);
		this.stubs.last =
			previous === undefined
				? undefined
				: {
						fingerprint: set.fingerprint,
						length: previous.messages.length,
						message: (i) => previous.messages[i] as ContextMessage,
						listed: previous.listed,
					};
		const listed = virtualizeMessages(
			listOf(projection.messages, projection.entryIds),
			set,
			this.stubs,
		);
		return {
			leaf,
			compaction: tree.latestCompaction(leaf),
			collapse: tree.latestCollapse(leaf),
			// Copies: grow() appends to them, and a projection's arrays are frozen.
			messages: projection.messages.slice(),
			entryIds: projection.entryIds.slice(),
			listed,
			stubbed: new Map(listed.map((v) => [v.index, v])),
		};
	}

	/**
	 * Extends `context` to end at `leaf` when the branch only grew by plain
	 * messages since its leaf; false (and `context` untouched) otherwise.
	 */
	private grow(context: Context, leaf: number, set: TemplateSet): boolean {
		const tree = this.log.sink;
		if (tree.latestCompaction(leaf) !== context.compaction) return false;
		if (tree.latestCollapse(leaf) !== context.collapse) return false;
		const segment: number[] = [];
		let x = leaf;
		const depth = tree.depth(context.leaf);
		for (; x !== context.leaf && x !== NONE && tree.depth(x) > depth; x = tree.parent(x)) {
			const kind = tree.kind(x);
			if (kind === Kind.Message) segment.push(x);
			else if (PRODUCES_MESSAGE.has(kind)) return false;
		}
		if (x !== context.leaf) return false;
		segment.reverse();
		if (tree.entries.everLetGo) tree.entries.materialize(segment);
		const start = context.messages.length;
		for (const i of segment) {
			const message = (tree.entry(i) as { message?: unknown }).message as ContextMessage;
			context.messages.push(freezeMessage(message));
			context.entryIds.push(tree.idAt(i));
		}
		this.stubs.last = undefined;
		const added = virtualizeMessages(
			listOf(context.messages.slice(start), context.entryIds.slice(start)),
			set,
			this.stubs,
		);
		for (const v of added) {
			const listing = Object.freeze({ ...v, index: v.index + start });
			context.listed.push(listing);
			context.stubbed.set(listing.index, listing);
		}
		context.leaf = leaf;
		return true;
	}
}

/** The assistant messages of the branch ending at the tree's leaf, root first (those with a parent). */
function assistantsOnBranch(tree: SessionTree): number[] {
	const path: number[] = [];
	for (let x = tree.leaf; x !== NONE; x = tree.parent(x)) {
		if (tree.kind(x) === Kind.Message && tree.parent(x) !== NONE) path.push(x);
	}
	path.reverse();
	if (tree.entries.everLetGo) tree.entries.materialize(path);
	return path.filter((i) => isAssistant(tree, i));
}

/** The first entry of the branch ending at the tree's leaf (NONE for an empty tree). */
function branchRoot(tree: SessionTree): number {
	let x = tree.leaf;
	while (x !== NONE && tree.parent(x) !== NONE) x = tree.parent(x);
	return x;
}

/** Whether entry `i` (materialized) is an assistant message. */
function isAssistant(tree: SessionTree, i: number): boolean {
	if (tree.kind(i) !== Kind.Message) return false;
	const message = (tree.entry(i) as { message?: unknown }).message;
	return (
		message !== null &&
		typeof message === "object" &&
		(message as { role?: unknown }).role === "assistant"
	);
}

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
import { Kind } from "../log/kinds.js";
import { OpenLog } from "../log/open-log.js";
import type { Header } from "../log/schema.js";
import {
	type VirtualizedResult,
	type VirtualizeMemo,
	virtualizeMessages,
} from "../render/stubs.js";
import { renderSystemPrompt } from "../render/system-prompt.js";
import type { ContextMessage } from "../session/messages.js";
import { projectBranch } from "../session/project.js";
import { NONE, SessionTree } from "../session/tree.js";
import type { TemplateSet } from "../templates/set.js";
import { deriveSummary, deriveSystemView } from "../view/derive.js";

/** One model call: the assistant message that answered, and the context it was asked with. */
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
	/** The tool results that reach the model as stubs. */
	virtualized: readonly VirtualizedResult[];
}

/** A session log read once, to be walked call by call under one or more sets. */
export class SessionWalk {
	private readonly log: OpenLog<SessionTree>;
	/** Tree indices of the assistant messages on the active branch, in order. */
	private readonly answers: number[];
	private readonly projected = new Map<string, Diagnostic>();

	constructor(file: string, options: { strict?: boolean } = {}) {
		const strict = options.strict === true;
		this.log = new OpenLog(
			file,
			(entries, name) => new SessionTree(entries, name, strict),
			options.strict === undefined ? {} : { strict },
		);
		this.log.readSync();
		this.answers = assistantsOnBranch(this.log.sink);
	}

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
		return [
			...this.log.diagnostics(),
			...this.log.sink.diagnostics.list(),
			...this.projected.values(),
		];
	}

	/** How many model calls the branch holds. */
	get calls(): number {
		return this.answers.length;
	}

	/** Each call's context under `set`, in order. */
	*walk(set: TemplateSet): Generator<CallContext> {
		const tree = this.log.sink;
		const header = this.log.header;
		const systemPrompt = renderSystemPrompt(set, deriveSystemView(header, tree.metadata, set));
		const frame = (summary: string) => deriveSummary(summary, set.caps, set.markers).text;
		let memo: VirtualizeMemo | undefined;
		let index = 0;
		for (const at of this.answers) {
			const parent = tree.parent(at);
			const projection = projectBranch(tree, header, frame, tree.idAt(parent));
			for (const d of projection.diagnostics) this.projected.set(`${d.code}:${d.line}`, d);
			const virtualized = virtualizeMessages(projection.messages, projection.entryIds, set, memo);
			memo = { fingerprint: set.fingerprint, messages: projection.messages, listed: virtualized };
			const answer = (tree.entry(at) as { message?: unknown }).message as Record<string, unknown>;
			yield {
				index: index++,
				entryId: tree.idAt(at),
				parentId: tree.idAt(parent),
				answer,
				systemPrompt,
				messages: projection.messages,
				entryIds: projection.entryIds,
				virtualized,
			};
		}
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
	return path.filter((i) => {
		const message = (tree.entry(i) as { message?: unknown }).message;
		return (
			message !== null &&
			typeof message === "object" &&
			(message as { role?: unknown }).role === "assistant"
		);
	});
}

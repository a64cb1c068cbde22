/**
 * The single entry point: a session log in, its context bundle out.
 *
 * read log → project branch → derive view → render → (convert, on demand).
 * A {@link ContextService} keeps each session it loaded open: the next load
 * of the same file reads only the bytes appended since, unless the file was
 * truncated or replaced, in which case it reads it whole again.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "./errors.js";
import { LogParser, type ParsedEntry, type ParseOptions } from "./log/parse.js";
import {
	type Expected,
	type FileState,
	readBefore,
	readFrom,
	readSpans,
	seemsCompacted,
} from "./log/read.js";
import type { Header } from "./log/schema.js";
import { carrySet, setOfBundle } from "./render/bundle-set.js";
import { convertMessages } from "./render/convert.js";
import { renderSystemPrompt } from "./render/system-prompt.js";
import type { ContextMessage, LlmMessage } from "./session/messages.js";
import { type ModelRef, projectBranch } from "./session/project.js";
import { SessionTree } from "./session/tree.js";
import { TemplateRegistry } from "./templates/registry.js";
import type { TemplateSet } from "./templates/set.js";
import { deriveSummary, deriveSystemView, type ViewOptions } from "./view/derive.js";

const DEFAULT_MAX_OPEN_SESSIONS = 32;
/** A log larger than this is read lean when it holds a compaction. */
const LEAN_LOG_BYTES = 128 * 1024 * 1024;
/** How much a lean read holds: little enough for entries to die young. */
const LEAN_RETAIN_BYTES = 1024 * 1024;

export interface ServiceOptions extends ParseOptions {
	/** The templates folder (default: the package's own `templates/`). */
	templates?: string;
	/** The template registry to use (default: the shared one of `templates`, read once per process). */
	registry?: TemplateRegistry;
	/**
	 * At most this many bytes of entries are held as objects while a log is
	 * read; older ones are read back when the context needs them. Default: all
	 * of them, but 1 MiB for a log over 128 MiB that holds a compaction.
	 */
	retainBytes?: number;
	/** How many sessions to keep open for incremental reloads (default 32, least recently loaded out first). */
	maxOpenSessions?: number;
}

export interface LoadOptions extends ViewOptions {
	/** Project the branch ending at this entry id instead of the default leaf. */
	leaf?: string;
	/** Render with this template set, whatever the session pins. */
	templateVersion?: string;
}

export interface BundleMeta {
	sessionId: string;
	file: string;
	/** The entry the branch ends at (null for a log with no entries). */
	leafId: string | null;
	/** The template set the system prompt was rendered with, and its fingerprint. */
	templateVersion: string;
	templateFingerprint: string;
	/** The model and thinking level last seen on the branch. */
	model: ModelRef | null;
	thinkingLevel: string | null;
	/** Entries read from the log (the header not counted). */
	entryCount: number;
	/** Warnings: torn last line, unknown entries, skipped lines, cut summaries… */
	diagnostics: Diagnostic[];
}

/** What a model call needs: the system prompt and the messages. */
export interface ContextBundle {
	systemPrompt: string;
	/** Read-only: messages are shared with the service's cache. */
	messages: ContextMessage[];
	/** The id of the log entry each message comes from, index for index with `messages`. */
	entryIds: readonly string[];
	meta: BundleMeta;
}

interface OpenSession {
	parser: LogParser;
	tree: SessionTree;
	state: FileState;
	/** The bytes before `parser.offset`, to tell an append from a replaced file. */
	check: Buffer;
}

export class ContextService {
	private readonly sessions = new Map<string, OpenSession>();
	private readonly registry: TemplateRegistry;

	constructor(private readonly options: ServiceOptions = {}) {
		this.registry = options.registry ?? TemplateRegistry.for(options.templates);
	}

	/** Loads the context bundle of the session log at `path`. */
	async load(path: string, options: LoadOptions = {}): Promise<ContextBundle> {
		await this.registry.ready(); // the template compiler, if a set must be compiled
		return this.loadSync(path, options);
	}

	/** {@link load}, synchronously. */
	loadSync(path: string, options: LoadOptions = {}): ContextBundle {
		const file = resolve(path);
		const session = this.read(file);
		const { parser, tree } = session;
		const header = parser.header as Header;
		const set = this.registry.get(options.templateVersion ?? tree.metadata.templateVersion);
		const summaryDiagnostics: Diagnostic[] = [];
		const projection = projectBranch(
			tree,
			header,
			(summary, line) => {
				const derived = deriveSummary(summary, set.caps, set.markers);
				summaryDiagnostics.push(...derived.diagnostics.map((d) => ({ ...d, file, line })));
				return derived.text;
			},
			options.leaf,
		);
		const view = deriveSystemView(header, tree.metadata, set, options);
		// In line order, so a kept-open session and a fresh load list them alike.
		const diagnostics = [
			...parser.diagnostics,
			...(parser.tornLine === undefined ? [] : [parser.tornLine]),
			...tree.diagnostics,
			...projection.diagnostics,
			...summaryDiagnostics,
		].sort(byLine);
		return carrySet(
			{
				systemPrompt: renderSystemPrompt(set, view),
				messages: projection.messages,
				entryIds: projection.entryIds,
				meta: {
					sessionId: header.id,
					file,
					leafId: projection.leafId ?? null,
					templateVersion: set.version,
					templateFingerprint: set.fingerprint,
					model: projection.model ?? null,
					thinkingLevel: projection.thinkingLevel ?? null,
					entryCount: tree.size,
					diagnostics,
				},
			},
			set,
		);
	}

	/** The provider-ready messages of `bundle`, framed by the set that rendered it. */
	convertToLlm(bundle: ContextBundle, options: { diagnostics?: Diagnostic[] } = {}): LlmMessage[] {
		return convertMessages(
			bundle.messages,
			setOfBundle(bundle, this.registry),
			options.diagnostics,
		);
	}

	/** The compiled template set `version` (default: the newest). */
	templateSet(version?: string): TemplateSet {
		return this.registry.get(version);
	}

	/** Forgets an open session; the next load reads it whole. */
	close(path: string): void {
		this.sessions.delete(resolve(path));
	}

	private read(file: string): OpenSession {
		const open = this.sessions.get(file);
		if (open !== undefined) {
			try {
				if (this.append(file, open)) {
					this.sessions.delete(file); // re-inserted last: the most recently loaded
					if (!open.tree.detached) this.sessions.set(file, open);
					return open;
				}
			} catch (error) {
				this.sessions.delete(file);
				throw error;
			}
		}
		this.sessions.delete(file);
		const parser = new LogParser(file, this.options);
		const tree = new SessionTree(file, this.options.lenient, {
			retainBytes: this.retainBytes(file),
		});
		tree.reader = (spans) => readSpans(file, spans);
		const state = feed(file, 0, parser, tree);
		const session = { parser, tree, state, check: readBefore(file, parser.offset) };
		if (!tree.detached) this.keep(file, session);
		return session;
	}

	/** Keeps `session` open, forgetting the least recently loaded one past the limit. */
	private keep(file: string, session: OpenSession): void {
		this.sessions.set(file, session);
		if (this.sessions.size > (this.options.maxOpenSessions ?? DEFAULT_MAX_OPEN_SESSIONS)) {
			const oldest = this.sessions.keys().next().value as string;
			this.sessions.delete(oldest);
		}
	}

	/**
	 * How many bytes of entry objects to hold while reading `file`. All of
	 * them, unless the log is huge and holds a compaction: then most of it is
	 * out of the context, and holding almost nothing keeps memory flat (what
	 * the context needs is read back).
	 */
	private retainBytes(file: string): number {
		if (this.options.retainBytes !== undefined) return this.options.retainBytes;
		const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
		return size > LEAN_LOG_BYTES && seemsCompacted(file)
			? LEAN_RETAIN_BYTES
			: Number.POSITIVE_INFINITY;
	}

	/** Reads what was appended since the last load; false if the file was replaced. */
	private append(file: string, open: OpenSession): boolean {
		const state = feed(file, open.parser.offset, open.parser, open.tree, {
			state: open.state,
			check: open.check,
		});
		if (!state.checked || open.parser.diverged) return false;
		open.state = state;
		open.check = readBefore(file, open.parser.offset);
		return true;
	}
}

function byLine(a: Diagnostic, b: Diagnostic): number {
	const line = (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY);
	if (line !== 0 && !Number.isNaN(line)) return line;
	return a.code < b.code
		? -1
		: a.code > b.code
			? 1
			: a.message < b.message
				? -1
				: a.message > b.message
					? 1
					: 0;
}

/** Streams `file` from `offset` through the parser into the tree. */
function feed(
	file: string,
	offset: number,
	parser: LogParser,
	tree: SessionTree,
	expected?: Expected,
): FileState & { checked: boolean } {
	const out: ParsedEntry[] = [];
	const state = readFrom(
		file,
		offset,
		(chunk) => {
			parser.push(chunk, out);
			tree.version = parser.version;
			for (const parsed of out) tree.add(parsed);
			out.length = 0;
		},
		expected,
	);
	if (!state.checked) return state;
	parser.end(out);
	for (const parsed of out) tree.add(parsed);
	tree.finish();
	return state;
}

/** Loads the context bundle of the session log at `path` (a one-off service). */
export function loadContext(
	path: string,
	options: LoadOptions & ServiceOptions = {},
): Promise<ContextBundle> {
	return new ContextService(options).load(path, options);
}

/**
 * The provider-ready form of a bundle's messages. Given the bundle, it frames
 * them with the template set that rendered it; given bare messages, with
 * `templateVersion` of `templates` (default: the newest set). Messages of an
 * unknown role are left out with a warning, into `diagnostics` when given.
 */
export function convertToLlm(
	input: ContextBundle | readonly ContextMessage[],
	options: { templates?: string; templateVersion?: string; diagnostics?: Diagnostic[] } = {},
): LlmMessage[] {
	const bundle = Array.isArray(input) ? undefined : (input as ContextBundle);
	const messages = bundle === undefined ? (input as readonly ContextMessage[]) : bundle.messages;
	const registry = TemplateRegistry.for(options.templates);
	const chosen = options.templates !== undefined || options.templateVersion !== undefined;
	const set =
		bundle === undefined || chosen
			? registry.get(options.templateVersion ?? bundle?.meta.templateVersion)
			: setOfBundle(bundle, registry);
	return convertMessages(messages, set, options.diagnostics);
}

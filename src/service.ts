/**
 * The single entry point: a session log in, its context bundle out.
 *
 * read log → project branch → derive view → render → (convert, on demand).
 * A {@link ContextService} keeps each session it loaded open: the next load
 * of the same file reads only the bytes appended since, unless the file was
 * truncated or replaced, in which case it reads it whole again.
 *
 * `load` reads the log with asynchronous reads; `loadSync` blocks. Both then
 * project and render synchronously (and so read back, synchronously, the
 * entries a lean read of a huge log let go).
 */
import { resolve } from "node:path";
import { ContextError, type Diagnostic } from "./errors.js";
import { OpenLog, type OpenLogOptions } from "./log/open-log.js";
import { STDIN } from "./log/read.js";
import { carrySet, setOfBundle } from "./render/bundle-set.js";
import { convertMessages } from "./render/convert.js";
import {
	stubsOf,
	type VirtualizedResult,
	type VirtualizeMemo,
	virtualizeMessages,
} from "./render/stubs.js";
import { renderSystemPrompt } from "./render/system-prompt.js";
import type { ContextMessage, LlmMessage } from "./session/messages.js";
import { type ModelRef, type Projection, projectBranch } from "./session/project.js";
import { SessionTree } from "./session/tree.js";
import { TemplateRegistry } from "./templates/registry.js";
import type { TemplateSet } from "./templates/set.js";
import { deriveSummary, deriveSystemView, type ViewOptions } from "./view/derive.js";

const DEFAULT_MAX_OPEN_SESSIONS = 32;

export interface ServiceOptions extends OpenLogOptions {
	/** The templates folder (default: the package's own `templates/`). */
	templates?: string;
	/** The template registry to use (default: the shared one of `templates`, read once per process). */
	registry?: TemplateRegistry;
	/** How many sessions to keep open for incremental reloads (default 32, least recently loaded out first). */
	maxOpenSessions?: number;
}

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
	/**
	 * The tool results that reach the model as stubs (`messages` keeps them
	 * whole), with the tokens each saves; empty when the set does not
	 * virtualize or the load was asked not to.
	 */
	virtualized: VirtualizedResult[];
}

/** What a model call needs: the system prompt and the messages. */
export interface ContextBundle {
	systemPrompt: string;
	/** Frozen: messages are shared with the service's cache. */
	messages: ContextMessage[];
	/** The id of the log entry each message comes from, index for index with `messages`. */
	entryIds: readonly string[];
	meta: BundleMeta;
}

type Session = OpenLog<SessionTree>;

const lineOf = (line: number | undefined) => (line === undefined ? {} : { line });

export class ContextService {
	private readonly sessions = new Map<string, Session>();
	/** The load in progress per file: loads of one file run one after the other. */
	private readonly queue = new Map<string, Promise<unknown>>();
	private readonly registry: TemplateRegistry;
	/** Per open session, what its last load virtualized: a reload decides only what is new. */
	private readonly virtualized = new WeakMap<SessionTree, VirtualizeMemo>();
	/** Per open session, its last projection and the set that framed it: a reload extends it. */
	private readonly projections = new WeakMap<
		SessionTree,
		{ fingerprint: string; projection: Projection }
	>();

	constructor(private readonly options: ServiceOptions = {}) {
		this.registry = options.registry ?? TemplateRegistry.for(options.templates);
	}

	/**
	 * Loads the context bundle of the session log at `path` (`-`: standard
	 * input), reading the file asynchronously.
	 */
	async load(path: string, options: LoadOptions = {}): Promise<ContextBundle> {
		await this.registry.ready(); // the template compiler, if a set must be compiled
		const file = fileOf(path);
		const previous = this.queue.get(file) ?? Promise.resolve();
		const run = previous
			.catch(() => undefined)
			.then(async () => {
				try {
					return this.bundle(await this.readAsync(file), options);
				} catch (error) {
					if (!isReplaced(error)) throw error;
					this.sessions.delete(file); // it changed while projected: once more, afresh
					return this.bundle(await this.readAsync(file), options);
				}
			});
		this.queue.set(file, run);
		try {
			return await run;
		} finally {
			if (this.queue.get(file) === run) this.queue.delete(file);
		}
	}

	/** {@link load}, synchronously: the file is read with blocking reads. */
	loadSync(path: string, options: LoadOptions = {}): ContextBundle {
		const file = fileOf(path);
		try {
			return this.bundle(this.readSync(file), options);
		} catch (error) {
			if (!isReplaced(error)) throw error;
			this.sessions.delete(file);
			return this.bundle(this.readSync(file), options);
		}
	}

	/** The set to render with: asked for, else the session's pin (a pin to no set is located at its line). */
	private setFor(log: Session, options: LoadOptions): TemplateSet {
		const pin = log.sink.metadata.templateVersion;
		if (options.templateVersion !== undefined || pin === undefined) {
			return this.registry.get(options.templateVersion);
		}
		try {
			return this.registry.get(pin);
		} catch (error) {
			if (!(error instanceof ContextError) || error.code !== "unknown_template_version")
				throw error;
			throw new ContextError(
				"unknown_template_version",
				`the session pins templateVersion ${JSON.stringify(pin)}, which ${error.file ?? "the templates folder"} does not hold (have: ${this.registry.versions().join(", ")}); ask for another set to render it (--template-version, or templateVersion)`,
				{ file: log.name, ...lineOf(log.sink.metadataLines.templateVersion) },
				{ cause: error },
			);
		}
	}

	private bundle(log: Session, options: LoadOptions): ContextBundle {
		const tree = log.sink;
		const header = log.header;
		const set = this.setFor(log, options);
		const before = this.projections.get(tree);
		const projection = projectBranch(
			tree,
			header,
			(summary, line) => {
				const derived = deriveSummary(summary, set.caps, set.markers);
				const diagnostics = derived.diagnostics.map((d) => ({ ...d, file: log.name, line }));
				return { text: derived.text, diagnostics };
			},
			options.leaf,
			before?.fingerprint === set.fingerprint ? before.projection : undefined,
		);
		this.projections.set(tree, { fingerprint: set.fingerprint, projection });
		const view = deriveSystemView(header, tree.metadata, set, options);
		const virtualized =
			options.virtualize === false
				? []
				: virtualizeMessages(
						projection.messages,
						projection.entryIds,
						set,
						this.virtualized.get(tree),
					);
		if (options.virtualize !== false) {
			this.virtualized.set(tree, {
				fingerprint: set.fingerprint,
				messages: projection.messages,
				listed: virtualized,
			});
		}
		// In line order, so a kept-open session and a fresh load list them alike.
		const diagnostics = [
			...log.diagnostics(),
			...tree.diagnostics.list(),
			...projection.diagnostics,
		].sort(byLine);
		return carrySet(
			{
				systemPrompt: renderSystemPrompt(set, view),
				// Built on first read: a reload that extends the branch shares the earlier messages.
				get messages() {
					return projection.messages;
				},
				get entryIds() {
					return projection.entryIds;
				},
				meta: {
					sessionId: header.id,
					file: log.path === STDIN ? log.name : log.path,
					leafId: projection.leafId ?? null,
					templateVersion: set.version,
					templateFingerprint: set.fingerprint,
					model: projection.model ?? null,
					thinkingLevel: projection.thinkingLevel ?? null,
					entryCount: tree.size,
					diagnostics,
					virtualized,
				},
			},
			set,
		);
	}

	/**
	 * The provider-ready messages of `bundle`, framed by the set that rendered
	 * it, the results `bundle.meta.virtualized` lists as stubs (unless
	 * `virtualize` is false).
	 */
	convertToLlm(
		bundle: ContextBundle,
		options: { diagnostics?: Diagnostic[]; virtualize?: boolean } = {},
	): LlmMessage[] {
		const set = setOfBundle(bundle, this.registry);
		return convertMessages(
			bundle.messages,
			set,
			options.diagnostics,
			stubsOf(bundle, set, options.virtualize !== false),
		);
	}

	/** The compiled template set `version` (default: the newest). */
	templateSet(version?: string): TemplateSet {
		return this.registry.get(version);
	}

	/** Forgets an open session; the next load reads it whole. */
	close(path: string): void {
		this.sessions.delete(fileOf(path));
	}

	/** The session of `file`, read up to date: the kept one resumed, or a fresh one. */
	private readSync(file: string): Session {
		const open = this.sessions.get(file);
		// A session being read asynchronously is left alone: this load reads its own.
		if (open !== undefined && !this.queue.has(file)) {
			if (this.resumed(file, open, () => open.readSync())) return open;
		}
		const log = this.newSession(file);
		log.readSync();
		this.keep(file, log);
		return log;
	}

	private async readAsync(file: string): Promise<Session> {
		const open = this.sessions.get(file);
		if (open !== undefined && this.resumed(file, open, await settle(open.read()))) return open;
		const log = this.newSession(file);
		await log.read();
		this.keep(file, log);
		return log;
	}

	/** Whether the kept `log` read what was appended (false: the file was replaced). */
	private resumed(file: string, log: Session, read: () => boolean): boolean {
		this.sessions.delete(file); // re-inserted last: the most recently loaded
		if (!read()) return false;
		this.keep(file, log);
		return true;
	}

	private newSession(file: string): Session {
		const strict = this.options.strict === true;
		return new OpenLog(
			file,
			(entries, name) => new SessionTree(entries, name, strict),
			this.options,
		);
	}

	/**
	 * Keeps `log` open for incremental reloads, forgetting the least recently
	 * loaded one past the limit. A stream is read once; a repaired tree (a
	 * missing parent, a duplicate id, a cycle) may change with the next
	 * append, so it is read afresh each time.
	 */
	private keep(file: string, log: Session): void {
		if (file === STDIN || !log.regular || log.sink.repaired) return;
		this.sessions.set(file, log);
		if (this.sessions.size > (this.options.maxOpenSessions ?? DEFAULT_MAX_OPEN_SESSIONS)) {
			const oldest = this.sessions.keys().next().value as string;
			this.sessions.delete(oldest);
		}
	}
}

/** The key of a session: its absolute path, or `-`. */
function fileOf(path: string): string {
	return path === STDIN ? STDIN : resolve(path);
}

function isReplaced(error: unknown): boolean {
	return error instanceof ContextError && error.code === "file_replaced";
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

/** Loads the context bundle of the session log at `path` (a one-off service). */
export function loadContext(
	path: string,
	options: LoadOptions & ServiceOptions = {},
): Promise<ContextBundle> {
	return new ContextService(options).load(path, options);
}

/**
 * The provider-ready form of a bundle's messages. Given the bundle, it frames
 * them with the template set that rendered it and applies its
 * `meta.virtualized` (unless `virtualize` is false); given bare messages, with
 * `templateVersion` of `templates` (default: the newest set), every tool
 * result whole (a stub names its entry, which bare messages do not have).
 * Messages of an unknown role are left out with a warning, into
 * `diagnostics` when given.
 */
export function convertToLlm(
	input: ContextBundle | readonly ContextMessage[],
	options: {
		templates?: string;
		templateVersion?: string;
		diagnostics?: Diagnostic[];
		virtualize?: boolean;
	} = {},
): LlmMessage[] {
	const bundle = Array.isArray(input) ? undefined : (input as ContextBundle);
	const messages = bundle === undefined ? (input as readonly ContextMessage[]) : bundle.messages;
	const registry = TemplateRegistry.for(options.templates);
	const chosen = options.templates !== undefined || options.templateVersion !== undefined;
	const set =
		bundle === undefined || chosen
			? registry.get(options.templateVersion ?? bundle?.meta.templateVersion)
			: setOfBundle(bundle, registry);
	const stubs =
		bundle === undefined ? undefined : stubsOf(bundle, set, options.virtualize !== false);
	return convertMessages(messages, set, options.diagnostics, stubs);
}

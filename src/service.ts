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
import { readForeign } from "./import/foreign.js";
import { OpenLog, type OpenLogOptions } from "./log/open-log.js";
import { STDIN } from "./log/read.js";
import { convertMessages } from "./render/convert.js";
import {
	bundleConverter,
	StubCache,
	stubsOf,
	type VirtualizedResult,
	virtualizeMessages,
} from "./render/stubs.js";
import { renderSystemPrompt } from "./render/system-prompt.js";
import type { ContextMessage, LlmMessage } from "./session/messages.js";
import { type ModelRef, type Projection, projectBranch } from "./session/project.js";
import { SessionTree } from "./session/tree.js";
import { type Compiler, TemplateRegistry } from "./templates/registry.js";
import type { TemplateSet } from "./templates/set.js";
import { deriveSummary, deriveSystemView, type ViewOptions } from "./view/derive.js";
import type { SystemView } from "./view/schema.js";

const DEFAULT_MAX_OPEN_SESSIONS = 32;

/** How a service reads: its templates, how many sessions it keeps open, and the reader's limits. */
export interface ServiceOptions extends OpenLogOptions {
	/** The templates folder (default: the package's own `templates/`). */
	templates?: string;
	/** The template registry to use (default: the shared one of `templates`, read once per process). */
	registry?: TemplateRegistry;
	/**
	 * Compiles a set that has no fresh precompiled module. Without it, `load`
	 * loads the compiler when a set needs it, and `loadSync` needs a registry
	 * that is ready (the library's entry point passes it).
	 */
	compiler?: Compiler;
	/** How many sessions to keep open for incremental reloads (default 32, least recently loaded out first). */
	maxOpenSessions?: number;
}

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
	/** Frozen: messages are shared with the service's cache. */
	messages: ContextMessage[];
	/** The id of the log entry each message comes from, index for index with `messages`. */
	entryIds: readonly string[];
	meta: BundleMeta;
}

type Session = OpenLog<SessionTree>;

/** A bundle with what rendered it: the set and the system prompt's view (for measuring). */
export interface Composed {
	bundle: ContextBundle;
	set: TemplateSet;
	view: SystemView;
}

const lineOf = (line: number | undefined) => (line === undefined ? {} : { line });

export class ContextService {
	private readonly sessions = new Map<string, Session>();
	/** The load in progress per file: loads of one file run one after the other. */
	private readonly queue = new Map<string, Promise<unknown>>();
	private readonly registry: TemplateRegistry;
	/** Per open session, its virtualization decisions: a reload decides only what is new. */
	private readonly stubs = new WeakMap<SessionTree, StubCache>();
	/** Per open session, its last projection and the set that framed it: a reload extends it. */
	private readonly projections = new WeakMap<
		SessionTree,
		{ fingerprint: string; projection: Projection }
	>();

	constructor(private readonly options: ServiceOptions = {}) {
		if (options.strict === true && options.lenient === true) {
			throw new ContextError(
				"bad_options",
				"options strict and lenient contradict each other: give one",
			);
		}
		this.registry =
			options.registry ??
			TemplateRegistry.for(
				options.templates,
				options.compiler === undefined ? {} : { compiler: options.compiler },
			);
	}

	/**
	 * Loads the context bundle of the session log at `path` (`-`: standard
	 * input), reading the file asynchronously.
	 */
	async load(path: string, options: LoadOptions = {}): Promise<ContextBundle> {
		return (await this.compose(path, options)).bundle;
	}

	/** {@link load}, synchronously: the file is read with blocking reads. */
	loadSync(path: string, options: LoadOptions = {}): ContextBundle {
		return this.composeSync(path, options).bundle;
	}

	/**
	 * {@link load}, with the set that rendered the bundle and the view its
	 * system prompt was rendered from: what the workbench measures.
	 * @internal
	 */
	async compose(path: string, options: LoadOptions = {}): Promise<Composed> {
		const file = loadTarget(path, options);
		await this.registry.ready(); // the template compiler, if a set must be compiled
		const previous = this.queue.get(file) ?? Promise.resolve();
		const run = previous
			.catch(() => undefined)
			.then(async () => {
				try {
					return this.composeLog(await this.readAsync(file), options);
				} catch (error) {
					if (!isReplaced(error)) throw error;
					this.sessions.delete(file); // it changed while projected: once more, afresh
					return this.composeLog(await this.readAsync(file), options);
				}
			});
		this.queue.set(file, run);
		try {
			return await run;
		} finally {
			if (this.queue.get(file) === run) this.queue.delete(file);
		}
	}

	/** {@link compose}, synchronously. @internal */
	composeSync(path: string, options: LoadOptions = {}): Composed {
		const file = loadTarget(path, options);
		try {
			return this.composeLog(this.readSync(file), options);
		} catch (error) {
			if (!isReplaced(error)) throw error;
			this.sessions.delete(file);
			return this.composeLog(this.readSync(file), options);
		}
	}

	/**
	 * {@link composeSync}, for a one-off process: the file is read with
	 * blocking reads, only the set the session renders with is made ready
	 * (loaded precompiled, or the compiler imported when it must be compiled),
	 * and the bundle's messages, used once, are not frozen (nor kept for a
	 * later load to extend: that one projects afresh, frozen).
	 * @internal
	 */
	async composeOnce(path: string, options: LoadOptions = {}): Promise<Composed> {
		const file = loadTarget(path, options);
		const once = async () => {
			const log = this.readSync(file);
			const pin = log.sink.metadata.templateVersion;
			await this.registry.ready([options.templateVersion ?? pin ?? this.registry.newest()]);
			return this.composeLog(log, options, false);
		};
		try {
			return await once();
		} catch (error) {
			if (!isReplaced(error)) throw error;
			this.sessions.delete(file);
			return await once();
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

	private composeLog(log: Session, options: LoadOptions, shared = true): Composed {
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
			shared,
		);
		if (shared) this.projections.set(tree, { fingerprint: set.fingerprint, projection });
		else this.projections.delete(tree);
		const view = deriveSystemView(header, tree.metadata, set, options);
		const virtualized =
			options.virtualize === false
				? []
				: virtualizeMessages(projection.prefix, set, this.stubCache(tree), projection.shared);
		// In line order, so a kept-open session and a fresh load list them alike.
		const diagnostics = [
			...log.diagnostics(),
			...tree.diagnostics.list(),
			...projection.diagnostics,
		].sort(byLine);
		const bundle: ContextBundle = {
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
				templatesDir: this.registry.dir,
				model: projection.model ?? null,
				thinkingLevel: projection.thinkingLevel ?? null,
				entryCount: tree.size,
				diagnostics,
				virtualized,
			},
		};
		return { bundle, set, view };
	}

	private stubCache(tree: SessionTree): StubCache {
		let cache = this.stubs.get(tree);
		if (cache === undefined) {
			cache = new StubCache();
			this.stubs.set(tree, cache);
		}
		return cache;
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
		const set = this.setOfBundle(bundle);
		return convertMessages(
			bundle.messages,
			set,
			options.diagnostics,
			stubsOf(bundle, set, { enabled: options.virtualize !== false, ...this.cacheOf(bundle) }),
		);
	}

	/**
	 * Each message of `bundle` in its provider-ready form, by index: the stub
	 * it reaches the model as (the session's own decisions, when it is still
	 * open), else the message framed as usual; undefined for one that stays
	 * out of the context.
	 */
	converter(
		bundle: ContextBundle,
		options: { virtualize?: boolean } = {},
	): (index: number) => LlmMessage | undefined {
		return bundleConverter(bundle, this.setOfBundle(bundle), {
			enabled: options.virtualize !== false,
			...this.cacheOf(bundle),
		});
	}

	/** The virtualization decisions of the open session `bundle` came from, if it is open. */
	private cacheOf(bundle: ContextBundle): { cache?: StubCache } {
		const tree = this.sessions.get(fileOf(bundle.meta.file))?.sink;
		const cache = tree === undefined ? undefined : this.stubs.get(tree);
		return cache === undefined ? {} : { cache };
	}

	/**
	 * The set that rendered `bundle`: its version in the templates folder its
	 * `meta` names (this service's own when it names none), refused when that
	 * folder's set is no longer the one that rendered it.
	 */
	setOfBundle(bundle: {
		meta: Pick<BundleMeta, "templateVersion" | "templateFingerprint"> & { templatesDir?: string };
	}): TemplateSet {
		const dir = bundle.meta.templatesDir;
		const registry =
			dir === undefined || resolve(dir) === resolve(this.registry.dir)
				? this.registry
				: TemplateRegistry.for(
						dir,
						this.options.compiler === undefined ? {} : { compiler: this.options.compiler },
					);
		return setOfBundle(bundle, registry);
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
		return new OpenLog(file, (entries, name) => new SessionTree(entries, name, strict), {
			foreign: readForeign,
			...this.options,
		});
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

/** The file a load names, its path and options checked first: a caller's slip is a `bad_options`. */
function loadTarget(path: unknown, options: unknown): string {
	if (typeof path !== "string" || path === "") {
		throw new ContextError(
			"bad_options",
			`the path must be a non-empty string, not ${describe(path)}`,
		);
	}
	checkLoadOptions(options);
	return fileOf(path);
}

const STRING_OPTIONS = ["leaf", "templateVersion", "memory", "cwd"] as const;

function checkLoadOptions(options: unknown): void {
	const bad = (reason: string) => new ContextError("bad_options", reason);
	if (typeof options !== "object" || options === null || Array.isArray(options)) {
		throw bad(`the options must be an object, not ${describe(options)}`);
	}
	const o = options as Record<string, unknown>;
	for (const key of STRING_OPTIONS) {
		if (o[key] !== undefined && typeof o[key] !== "string") {
			throw bad(`option ${key} must be a string, not ${describe(o[key])}`);
		}
	}
	if (
		o.tools !== undefined &&
		!(Array.isArray(o.tools) && o.tools.every((t) => typeof t === "string"))
	) {
		throw bad(`option tools must be an array of tool names (strings), not ${describe(o.tools)}`);
	}
	if (o.virtualize !== undefined && typeof o.virtualize !== "boolean") {
		throw bad(`option virtualize must be true or false, not ${describe(o.virtualize)}`);
	}
}

function describe(value: unknown): string {
	if (Array.isArray(value)) return "an array";
	if (value === null) return "null";
	return typeof value === "string" ? JSON.stringify(value) : `${typeof value} ${String(value)}`;
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

/**
 * The provider-ready form of a bundle's messages. Given the bundle, it frames
 * them with the template set that rendered it (found by the version and
 * templates folder its `meta` names, and refused when that folder's set is
 * no longer the one that rendered it) and applies its `meta.virtualized`
 * (unless `virtualize` is false); given bare messages, with `templateVersion`
 * of `templates` (default: the newest set), every tool result whole (a stub
 * names its entry, which bare messages do not have). Messages of an unknown
 * role are left out with a warning, into `diagnostics` when given, else
 * through `process.emitWarning`.
 */
export function convertToLlm(
	input: ContextBundle | readonly ContextMessage[],
	options: {
		templates?: string;
		templateVersion?: string;
		diagnostics?: Diagnostic[];
		virtualize?: boolean;
		compiler?: Compiler;
	} = {},
): LlmMessage[] {
	const bundle = Array.isArray(input) ? undefined : (input as ContextBundle);
	const messages = bundle === undefined ? (input as readonly ContextMessage[]) : bundle.messages;
	const registry = TemplateRegistry.for(
		options.templates ?? bundle?.meta.templatesDir,
		options.compiler === undefined ? {} : { compiler: options.compiler },
	);
	const chosen = options.templates !== undefined || options.templateVersion !== undefined;
	const set =
		bundle === undefined || chosen
			? registry.get(options.templateVersion ?? bundle?.meta.templateVersion)
			: setOfBundle(bundle, registry);
	const stubs =
		bundle === undefined
			? undefined
			: stubsOf(bundle, set, { enabled: options.virtualize !== false });
	return convertMessages(messages, set, options.diagnostics, stubs);
}

/** The set `bundle` names in `registry`, refused when it is not the one that rendered it. */
function setOfBundle(
	bundle: { meta: { templateVersion: string; templateFingerprint?: string } },
	registry: TemplateRegistry,
): TemplateSet {
	const { templateVersion, templateFingerprint } = bundle.meta;
	const set = registry.get(templateVersion);
	if (templateFingerprint !== undefined && set.fingerprint !== templateFingerprint) {
		throw new ContextError(
			"unknown_template_version",
			`the bundle was rendered with a template set ${templateVersion} other than the one in this folder (fingerprint ${templateFingerprint.slice(0, 12)}…, here ${set.fingerprint.slice(0, 12)}…): convert it with the templates folder that rendered it`,
			{ file: registry.dir },
		);
	}
	return set;
}

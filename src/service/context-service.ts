/**
 * The single entry point: a session log in, its context bundle out.
 *
 * read log → project branch → derive view → render → (convert, on demand).
 * A {@link ContextService} keeps each session it loaded open: the next load
 * of the same file reads only the bytes appended since, unless the file was
 * truncated or replaced, in which case it reads it whole again. A repaired
 * tree (a missing parent, a duplicate id, a cycle) is kept as a clean one
 * is; only an append that changes an earlier entry has it read afresh.
 *
 * `load` reads the log with asynchronous reads; `loadSync` blocks. Both then
 * project and render synchronously (and so read back, synchronously, the
 * entries a lean read of a huge log let go).
 */
import { ContextError, type Diagnostic } from "../errors.js";
import type { OpenLogOptions } from "../log/open-log.js";
import { STDIN } from "../log/read.js";
import { convertMessages } from "../render/convert.js";
import {
	bundleConverter,
	StubCache,
	stubsOf,
	tailConverter,
	virtualizeMessages,
} from "../render/stubs.js";
import { renderSystemPrompt } from "../render/system-prompt.js";
import type { LlmMessage } from "../session/messages.js";
import { type Projection, projectBranch } from "../session/project.js";
import type { SessionTree } from "../session/tree.js";
import { type Compiler, TemplateRegistry } from "../templates/registry.js";
import type { TemplateSet } from "../templates/set.js";
import { deriveSummary, deriveSystemView } from "../view/derive.js";
import {
	type BundleMeta,
	type Composed,
	type ContextBundle,
	Lineage,
	type LoadOptions,
} from "./bundle.js";
import { setOfBundle } from "./convert.js";
import { checkServiceOptions, fileOf, loadTarget } from "./options.js";
import { OpenSessions, type Session } from "./sessions.js";

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

/** A session's last projection, the set that framed it, and the lineage its messages belong to. */
interface Projected {
	fingerprint: string;
	projection: Projection;
	lineage: Lineage;
}

export class ContextService {
	/** The sessions kept open, each read up to date by the next load of its file. */
	private readonly sessions: OpenSessions;
	/** The load in progress per file: loads of one file run one after the other. */
	private readonly queue = new Map<string, Promise<unknown>>();
	private registry: TemplateRegistry;
	/** Per open session, its virtualization decisions: a reload decides only what is new. */
	private readonly stubs = new WeakMap<SessionTree, StubCache>();
	/** Per open session, its last projection: a reload extends it. */
	private readonly projections = new WeakMap<SessionTree, Projected>();

	constructor(private readonly options: ServiceOptions = {}) {
		checkServiceOptions(options);
		this.sessions = new OpenSessions(options, options.maxOpenSessions ?? DEFAULT_MAX_OPEN_SESSIONS);
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
	 * system prompt was rendered from (what the workbench measures), and the
	 * lineage of its messages (what the sidecar's cursors continue).
	 * @internal
	 */
	async compose(path: string, options: LoadOptions = {}): Promise<Composed> {
		const file = loadTarget(path, options);
		await this.registry.ready(); // the template compiler, if a set must be compiled
		const previous = this.queue.get(file) ?? Promise.resolve();
		const run = previous
			.catch(() => undefined)
			.then(() =>
				this.retried(file, async () =>
					this.composeLog(await this.sessions.readAsync(file), options),
				),
			);
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
		return this.retried(file, () =>
			this.composeLog(this.sessions.readSync(file, this.queue.has(file)), options),
		);
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
		return this.retried(file, async () => {
			const log = this.sessions.readSync(file, this.queue.has(file));
			const pin = log.sink.metadata.templateVersion;
			await this.registry.ready([options.templateVersion ?? pin ?? this.registry.newest()]);
			return this.composeLog(log, options, false);
		});
	}

	/**
	 * Runs `attempt` (a read and a projection of `file`), once more from a
	 * fresh read when the file changed under it (an entry read back is no
	 * longer the one read): the read-and-retry of every compose.
	 */
	private retried<T>(file: string, attempt: () => T): T {
		const again = (error: unknown): T => {
			if (!(error instanceof ContextError) || error.code !== "file_replaced") throw error;
			this.sessions.drop(file, "rewritten");
			return attempt();
		};
		let result: T;
		try {
			result = attempt();
		} catch (error) {
			return again(error);
		}
		return result instanceof Promise ? (result.catch(again) as T) : result;
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
			const line = log.sink.metadataLines.templateVersion;
			throw new ContextError(
				"unknown_template_version",
				`the session pins templateVersion ${JSON.stringify(pin)}, which ${error.file ?? "the templates folder"} does not hold (have: ${this.registry.versions().join(", ")}); ask for another set to render it (--template-version, or templateVersion)`,
				{ file: log.name, ...(line === undefined ? {} : { line }) },
				{ cause: error },
			);
		}
	}

	private composeLog(log: Session, options: LoadOptions, shared = true): Composed {
		const tree = log.sink;
		const header = log.header;
		const set = this.setFor(log, options);
		const before = this.projections.get(tree);
		const sameSet = before?.fingerprint === set.fingerprint;
		const projection = projectBranch(
			tree,
			header,
			(summary, line) => {
				const derived = deriveSummary(summary, set.caps, set.markers);
				const diagnostics = derived.diagnostics.map((d) => ({ ...d, file: log.name, line }));
				return { text: derived.text, diagnostics };
			},
			options.leaf,
			sameSet ? before.projection : undefined,
			shared,
		);
		const lineage =
			before === undefined
				? new Lineage(this.sessions.reasonOf(tree))
				: !sameSet
					? new Lineage("templates")
					: projection.restart !== undefined
						? new Lineage(projection.restart)
						: before.lineage;
		if (shared) this.projections.set(tree, { fingerprint: set.fingerprint, projection, lineage });
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
		const meta: BundleMeta = {
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
		};
		const bundle: ContextBundle = {
			systemPrompt: renderSystemPrompt(set, view),
			// Built on first read: a reload that extends the branch shares the earlier messages.
			get messages() {
				return projection.messages;
			},
			get entryIds() {
				return projection.entryIds;
			},
			meta,
		};
		return { bundle, set, view, lineage, list: projection.prefix };
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

	/**
	 * {@link converter} for the messages from index `from` on of a composed
	 * bundle, reading none before it: what a reply after an append sends.
	 * @internal
	 */
	tailConverter(
		composed: Composed,
		from: number,
		options: { virtualize?: boolean } = {},
	): (index: number) => LlmMessage | undefined {
		const { bundle, list, set } = composed;
		return tailConverter(list, bundle.meta.virtualized, set, from, {
			enabled: options.virtualize !== false,
			...this.cacheOf(bundle),
		});
	}

	/** The virtualization decisions of the open session `bundle` came from, if it is open. */
	private cacheOf(bundle: ContextBundle): { cache?: StubCache } {
		const tree = this.sessions.treeOf(fileOf(bundle.meta.file));
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
			dir === undefined || fileOf(dir) === fileOf(this.registry.dir)
				? this.registry
				: TemplateRegistry.for(
						dir,
						this.options.compiler === undefined ? {} : { compiler: this.options.compiler },
					);
		return setOfBundle(bundle, registry);
	}

	/**
	 * Renders with `registry` from the next load on (a templates folder read
	 * again). Open sessions stay open: a set whose fingerprint is unchanged
	 * goes on extending their projections, a changed one projects afresh.
	 * @internal
	 */
	useRegistry(registry: TemplateRegistry): void {
		this.registry = registry;
	}

	/** The compiled template set `version` (default: the newest). */
	templateSet(version?: string): TemplateSet {
		return this.registry.get(version);
	}

	/** Forgets an open session; the next load reads it whole. */
	close(path: string): void {
		this.sessions.close(fileOf(path));
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

/**
 * The sidecar's request handling, apart from any stream: a line in, the
 * reply line out. One {@link ContextService} keeps the sessions open, so a
 * `load` reads only the bytes appended since the last one; the cursors let
 * the reply carry only the messages appended since the client's last reply.
 * No request, however bad, throws out of {@link Sidecar.handle}.
 *
 * The template sets are read once, at start; `reload` reads the folder again
 * (and keeps the sets in use if the new ones do not build), so edits, bumped
 * versions and new sets reach the next load without a restart.
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import type { VirtualizedResult } from "../render/stubs.js";
import type { Composed, LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import { TemplateRegistry } from "../templates/registry.js";
import { capabilities } from "./capabilities.js";
import { type CursorState, CursorStore, type ResetReason, resetReason } from "./cursors.js";
import { type DeepMessage, findDeepMessage } from "./deep.js";
import type { TooLong } from "./lines.js";
import { checkRoots, PathRefused, stampOf } from "./paths.js";
import {
	errorReply,
	type Format,
	type LoadParams,
	ParamsError,
	type Parsed,
	paramsOf,
	parseLine,
	type Reply,
	type Request,
	RpcCode,
	resultReply,
} from "./protocol.js";
import { WarnedStore } from "./warned.js";

export interface SidecarOptions {
	/** How many sessions stay open (least recently used out first). */
	maxSessions: number;
	/** The templates folder (default: the package's own). */
	templates?: string;
	/** Where a warning goes (stderr, each once): the command line says it in its voice. */
	warn: (diagnostic: Diagnostic) => void;
	/** Where an internal error (a bug) goes, its request answered with -32603. */
	bug: (error: unknown) => void;
	/**
	 * The folders whose session logs may be loaded (real paths: symlinks
	 * resolved); a path whose real path is outside all of them is refused
	 * (-32003). Default: any path.
	 */
	roots?: readonly string[];
}

export class Sidecar {
	private registry: TemplateRegistry;
	private readonly service: ContextService;
	/** The service of `strict` loads, made on the first one. */
	private strictService: ContextService | undefined;
	private readonly cursors: CursorStore;
	private readonly warned: WarnedStore;
	/** Set by `shutdown`: the caller stops reading once the reply is out. */
	stopped = false;

	constructor(private readonly options: SidecarOptions) {
		this.registry = TemplateRegistry.for(options.templates);
		this.service = new ContextService({
			registry: this.registry,
			maxOpenSessions: options.maxSessions,
		});
		this.cursors = new CursorStore(options.maxSessions);
		this.warned = new WarnedStore(options.maxSessions);
	}

	/** Renders with `registry` from now on; open sessions stay open (a changed set projects afresh). */
	private useRegistry(registry: TemplateRegistry): void {
		this.registry = registry;
		this.service.useRegistry(registry);
		this.strictService?.useRegistry(registry);
	}

	private serviceFor(strict: boolean): ContextService {
		if (!strict) return this.service;
		this.strictService ??= new ContextService({
			registry: this.registry,
			maxOpenSessions: this.options.maxSessions,
			strict: true,
		});
		return this.strictService;
	}

	/** How many sessions have cursors (at most `maxSessions`). */
	get sessionCount(): number {
		return this.cursors.size;
	}

	/** The reply line to one request line (a batch gets one line too); undefined if none is due. */
	async handle(line: Buffer | TooLong): Promise<string | undefined> {
		if ("tooLong" in line) {
			return JSON.stringify(
				errorReply(
					null,
					RpcCode.InvalidRequest,
					`Invalid Request: the line is over the limit (${line.tooLong} bytes)`,
				),
			);
		}
		// A line that is not UTF-8 is not JSON (RFC 8259): decoding it would turn its bytes into U+FFFD.
		if (!isUtf8(line)) {
			return JSON.stringify(errorReply(null, RpcCode.ParseError, "the line is not valid UTF-8"));
		}
		const text = line.toString("utf8").trim();
		if (text === "") return undefined;
		const { batch, items } = parseLine(text);
		const replies: string[] = [];
		for (const item of items) {
			const reply = "reply" in item ? item.reply : await this.dispatch(item);
			if (reply !== undefined) replies.push(await this.serialize(reply, item));
		}
		if (replies.length === 0) return undefined;
		return batch ? `[${replies.join(",")}]` : replies[0];
	}

	/**
	 * The reply's JSON text. A message nested too deeply for `JSON.stringify`
	 * fails the load instead (-32001), naming its file, line and entry.
	 */
	private async serialize(reply: Reply, item: Parsed): Promise<string> {
		try {
			return JSON.stringify(reply);
		} catch (error) {
			if (!(error instanceof RangeError)) throw error;
		}
		let file: string | undefined;
		let deep: DeepMessage | undefined;
		if ("request" in item && item.request.method === "load") {
			const params = paramsOf<LoadParams>("load", item.request.params);
			file = resolve(params.path);
			try {
				const service = this.serviceFor(params.strict === true);
				const bundle = await service.load(file, loadOptions(params));
				deep = await findDeepMessage(bundle, params.format ?? "llm", service.converter(bundle));
			} catch {
				// The log changed or went since: the error names the file alone.
			}
		}
		const which =
			deep === undefined ? "a message" : `message ${deep.index} (entry ${deep.entryId})`;
		const error = new ContextError("render", `${which} is nested too deeply to send as JSON`, {
			...(file === undefined ? {} : { file }),
			...(deep?.line === undefined ? {} : { line: deep.line }),
		});
		return JSON.stringify(errorReply(reply.id, RpcCode.LoadFailed, error.message, located(error)));
	}

	private async dispatch({
		request,
	}: Extract<Parsed, { request: Request }>): Promise<Reply | undefined> {
		const id = request.id ?? null;
		const reply = await this.call(request).then(
			(result) => resultReply(id, result),
			(error: unknown) => this.failure(id, error),
		);
		return request.id === undefined ? undefined : reply;
	}

	private async call({ method, params }: Request): Promise<unknown> {
		switch (method) {
			case "load":
				return this.load(paramsOf<LoadParams>(method, params));
			case "close": {
				const { path } = paramsOf<{ path: string }>(method, params);
				const file = resolve(path);
				this.service.close(file);
				this.strictService?.close(file);
				this.warned.delete(file);
				return { closed: this.cursors.delete(file) };
			}
			case "reload":
				paramsOf(method, params);
				return this.reload();
			case "version":
				paramsOf(method, params);
				return capabilities(this.registry);
			case "shutdown":
				paramsOf(method, params);
				this.stopped = true;
				return null;
			default:
				throw new MethodNotFound(method);
		}
	}

	private async load(params: LoadParams): Promise<unknown> {
		if (params.path === "") throw new ParamsError('param "path" must name a session log');
		if (params.path.length > MAX_PATH) {
			throw new ParamsError(`param "path" is longer than any path (${MAX_PATH} characters)`);
		}
		const file = resolve(params.path);
		if (this.options.roots !== undefined) checkRoots(file, this.options.roots);
		const stamp = stampOf(file);
		const format = params.format ?? "llm";
		const service = this.serviceFor(params.strict === true);
		const composed = await service.compose(file, loadOptions(params));
		const { bundle, lineage, list } = composed;
		const systemPromptHash = createHash("sha256").update(bundle.systemPrompt).digest("hex");
		const now = {
			lineage,
			length: list.length,
			templateFingerprint: bundle.meta.templateFingerprint,
			format,
			whole: params.virtualize === false,
			file: stamp,
		};
		const before = params.since === undefined ? undefined : this.cursors.get(file, params.since);
		const reason: ResetReason | undefined =
			params.since === undefined
				? undefined
				: before === undefined
					? "unknown_cursor"
					: resetReason(before, now);
		const incremental = before !== undefined && reason === undefined;
		const start = incremental ? before.length : 0;
		const messages = messagesFrom(service, composed, start, format, now.whole);
		const keys = new Set(bundle.meta.diagnostics.map(diagnosticKey));
		const fresh = incremental
			? bundle.meta.diagnostics.filter((d) => !before.diagnostics.has(diagnosticKey(d)))
			: bundle.meta.diagnostics;
		// stderr gets each warning once, the first time a load finds it.
		const unwritten = this.warned.fresh(file, stamp, [...keys]);
		for (const d of bundle.meta.diagnostics) {
			if (unwritten.delete(diagnosticKey(d))) this.options.warn(d);
		}
		const from = incremental ? before.delivered : 0;
		const cursor = this.cursors.add(file, {
			...now,
			delivered: from + messages.length,
			systemPromptHash,
			diagnostics: keys,
		} satisfies CursorState);
		const samePrompt = incremental && before.systemPromptHash === systemPromptHash;
		return {
			...(samePrompt ? {} : { systemPrompt: bundle.systemPrompt }),
			systemPromptHash,
			messages,
			from,
			cursor,
			reset: params.since !== undefined && !incremental,
			...(reason === undefined ? {} : { resetReason: reason }),
			meta: {
				...bundle.meta,
				diagnostics: fresh,
				virtualized: incremental ? tailOf(bundle.meta.virtualized, start) : bundle.meta.virtualized,
			},
		};
	}

	/**
	 * Reads the templates folder again and compiles every set; if one does not
	 * build, the sets in use stay and the error goes back. Open sessions stay
	 * open; a cursor continues when its set is unchanged.
	 */
	private async reload(): Promise<unknown> {
		const next = new TemplateRegistry(this.registry.dir);
		const fingerprints: Record<string, string> = {};
		try {
			await next.ready();
			for (const version of next.versions()) fingerprints[version] = next.get(version).fingerprint;
		} catch (error) {
			throw error instanceof ContextError ? new ReloadFailed(error) : error;
		}
		const changed = Object.keys(fingerprints).filter(
			(version) => this.fingerprintNow(version) !== fingerprints[version],
		);
		const removed = this.registry.versions().filter((version) => !(version in fingerprints));
		this.useRegistry(next);
		this.warned.clear();
		return {
			templateVersions: next.versions(),
			fingerprints,
			changed,
			removed,
		};
	}

	/** The fingerprint of set `version` as in use now (undefined: none, or it does not build). */
	private fingerprintNow(version: string): string | undefined {
		try {
			return this.registry.versions().includes(version)
				? this.registry.get(version).fingerprint
				: undefined;
		} catch {
			return undefined; // an unbuildable set in use: the new one is a change
		}
	}

	private failure(id: Id, error: unknown): Reply {
		if (error instanceof ParamsError) {
			return errorReply(id, RpcCode.InvalidParams, `Invalid params: ${error.message}`);
		}
		if (error instanceof ReloadFailed) {
			return errorReply(id, RpcCode.ReloadFailed, error.cause.message, located(error.cause));
		}
		if (error instanceof PathRefused) {
			return errorReply(id, RpcCode.PathRefused, error.message, { file: error.file });
		}
		if (error instanceof MethodNotFound) {
			return errorReply(id, RpcCode.MethodNotFound, `Method not found: ${error.method}`);
		}
		if (error instanceof ContextError) {
			return errorReply(id, RpcCode.LoadFailed, error.message, located(error));
		}
		this.options.bug(error);
		return errorReply(id, RpcCode.InternalError, `Internal error: ${(error as Error)?.message}`);
	}
}

type Id = Reply["id"];

/** The longest path a system takes (Linux's PATH_MAX); a longer one is not echoed back. */
const MAX_PATH = 4096;

class MethodNotFound extends Error {
	constructor(readonly method: string) {
		super(method);
	}
}

/** The templates did not build at a `reload`: -32002. */
class ReloadFailed extends Error {
	constructor(override readonly cause: ContextError) {
		super(cause.message);
	}
}

/** An error reply's `data`: the located error, as the CLI prints it. */
function located(error: ContextError): Record<string, unknown> {
	return {
		code: error.code,
		file: error.file,
		line: error.line,
		column: error.column,
		message: error.reason,
		...(error.diagnostics.length > 1 ? { diagnostics: error.diagnostics } : {}),
	};
}

/** The load options of a request, without the keys it left out. */
function loadOptions(params: LoadParams): LoadOptions {
	const options: LoadOptions = {};
	if (params.leaf !== undefined) options.leaf = params.leaf;
	if (params.tools !== undefined) options.tools = params.tools;
	if (params.memory !== undefined) options.memory = params.memory;
	if (params.cwd !== undefined) options.cwd = params.cwd;
	if (params.templateVersion !== undefined) options.templateVersion = params.templateVersion;
	if (params.virtualize === false) options.virtualize = false;
	return options;
}

function diagnosticKey(d: Diagnostic): string {
	return `${d.code}\0${d.file ?? ""}\0${d.line ?? ""}\0${d.message}`;
}

/** The bundle's messages from index `start` on, in `format`, reading none before it. */
function messagesFrom(
	service: ContextService,
	composed: Composed,
	start: number,
	format: Format,
	whole: boolean,
): unknown[] {
	const { list } = composed;
	const out: unknown[] = [];
	if (format === "agent") {
		for (let index = start; index < list.length; index++) out.push(list.message(index));
		return out;
	}
	const convert = service.tailConverter(composed, start, { virtualize: !whole });
	for (let index = start; index < list.length; index++) {
		const converted = convert(index);
		if (converted !== undefined) out.push(converted);
	}
	return out;
}

/** The listed stubs among the messages from `start` on (the listing is in index order). */
function tailOf(listed: readonly VirtualizedResult[], start: number): VirtualizedResult[] {
	let k = listed.length;
	while (k > 0 && (listed[k - 1] as VirtualizedResult).index >= start) k--;
	return listed.slice(k);
}

/**
 * The sidecar's request handling, apart from any stream: a line in, the
 * reply line out. One {@link ContextService} keeps the sessions open, so a
 * `load` reads only the bytes appended since the last one; the cursors let
 * the reply carry only the messages appended since the client's last reply.
 * No request, however bad, throws out of {@link Sidecar.handle}.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ContextError, type Diagnostic, formatDiagnostic } from "../errors.js";
import { ioError } from "../log/read.js";
import { type ContextBundle, ContextService, type LoadOptions } from "../service.js";
import { type CursorState, CursorStore, continues, type FileStamp } from "./cursors.js";
import type { TooLong } from "./lines.js";
import {
	checkParams,
	errorReply,
	type Format,
	ParamsError,
	type Parsed,
	parseLine,
	type Reply,
	type Request,
	RpcCode,
	resultReply,
} from "./protocol.js";

export interface SidecarOptions {
	/** How many sessions stay open (least recently used out first). */
	maxSessions: number;
	/** The templates folder (default: the package's own). */
	templates?: string;
	/** Where warnings and internal errors are written (stderr). */
	log: (text: string) => void;
}

interface LoadParams {
	path: string;
	leaf?: string;
	tools?: string[];
	memory?: string;
	cwd?: string;
	templateVersion?: string;
	since?: string;
	format?: Format;
}

const LOAD_PARAMS = {
	path: "string",
	leaf: "string",
	tools: "strings",
	memory: "string",
	cwd: "string",
	templateVersion: "string",
	since: "string",
	format: "format",
} as const;

export class Sidecar {
	private readonly service: ContextService;
	private readonly cursors: CursorStore;
	/** Set by `shutdown`: the caller stops reading once the reply is out. */
	stopped = false;

	constructor(private readonly options: SidecarOptions) {
		this.service = new ContextService({
			...(options.templates === undefined ? {} : { templates: options.templates }),
			maxOpenSessions: options.maxSessions,
		});
		this.cursors = new CursorStore(options.maxSessions);
	}

	/** How many sessions have cursors (at most `maxSessions`). */
	get sessionCount(): number {
		return this.cursors.size;
	}

	/** The reply line to one request line (a batch gets one line too); undefined if none is due. */
	async handle(line: Buffer | TooLong): Promise<string | undefined> {
		if ("tooLong" in line) {
			return serialize(
				errorReply(
					null,
					RpcCode.InvalidRequest,
					`Invalid Request: the line is over the limit (${line.tooLong} bytes)`,
				),
			);
		}
		const text = line.toString("utf8").trim();
		if (text === "") return undefined;
		const { batch, items } = parseLine(text);
		const replies: Reply[] = [];
		for (const item of items) {
			const reply = "reply" in item ? item.reply : await this.dispatch(item);
			if (reply !== undefined) replies.push(reply);
		}
		if (replies.length === 0) return undefined;
		return batch ? serializeBatch(replies) : serialize(replies[0] as Reply);
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
				return this.load(checkParams<LoadParams>(params, LOAD_PARAMS, ["path"]));
			case "close": {
				const { path } = checkParams<{ path: string }>(params, { path: "string" }, ["path"]);
				const file = resolve(path);
				this.service.close(file);
				return { closed: this.cursors.delete(file) };
			}
			case "shutdown":
				checkParams(params, {});
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
		const stamp = stampOf(file);
		const format = params.format ?? "llm";
		const bundle = await this.service.load(file, loadOptions(params));
		const systemPromptHash = createHash("sha256").update(bundle.systemPrompt).digest("hex");
		const now = {
			entryIds: bundle.entryIds,
			templateFingerprint: bundle.meta.templateFingerprint,
			format,
			file: stamp,
		};
		const before = params.since === undefined ? undefined : this.cursors.get(file, params.since);
		const incremental = before !== undefined && continues(before, now);
		const start = incremental ? before.entryIds.length : 0;
		const messages = this.messagesFrom(bundle, start, format);
		const keys = new Set(bundle.meta.diagnostics.map(diagnosticKey));
		const fresh = incremental
			? bundle.meta.diagnostics.filter((d) => !before.diagnostics.has(diagnosticKey(d)))
			: bundle.meta.diagnostics;
		for (const d of fresh) this.options.log(`${formatDiagnostic(d)}\n`);
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
			meta: { ...bundle.meta, diagnostics: fresh },
		};
	}

	/** The bundle's messages from index `start` on, in `format`. */
	private messagesFrom(bundle: ContextBundle, start: number, format: Format): unknown[] {
		const tail = bundle.messages.slice(start);
		if (format === "agent") return tail;
		const convert = this.service.converter(bundle);
		const out: unknown[] = [];
		for (let index = start; index < bundle.messages.length; index++) {
			const converted = convert(index);
			if (converted !== undefined) out.push(converted);
		}
		return out;
	}

	private failure(id: Id, error: unknown): Reply {
		if (error instanceof ParamsError) {
			return errorReply(id, RpcCode.InvalidParams, `Invalid params: ${error.message}`);
		}
		if (error instanceof MethodNotFound) {
			return errorReply(id, RpcCode.MethodNotFound, `Method not found: ${error.method}`);
		}
		if (error instanceof ContextError) {
			return errorReply(id, RpcCode.LoadFailed, error.message, {
				code: error.code,
				file: error.file,
				line: error.line,
				column: error.column,
				message: error.reason,
				...(error.diagnostics.length > 1 ? { diagnostics: error.diagnostics } : {}),
			});
		}
		this.options.log(
			`theway-context serve: internal error (a bug, please report it)\n${(error as Error)?.stack ?? String(error)}\n`,
		);
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

/** The load options of a request, without the keys it left out. */
function loadOptions(params: LoadParams): LoadOptions {
	const options: LoadOptions = {};
	if (params.leaf !== undefined) options.leaf = params.leaf;
	if (params.tools !== undefined) options.tools = params.tools;
	if (params.memory !== undefined) options.memory = params.memory;
	if (params.cwd !== undefined) options.cwd = params.cwd;
	if (params.templateVersion !== undefined) options.templateVersion = params.templateVersion;
	return options;
}

/**
 * The file's identity; refuses what is not a regular file before it is
 * opened (opening a FIFO would wait for a writer, and stall every session).
 */
function stampOf(file: string): FileStamp {
	let stat: ReturnType<typeof statSync>;
	try {
		stat = statSync(file, { throwIfNoEntry: false });
	} catch (error) {
		throw ioError(file, error); // a path through a file, a symlink loop, a name too long
	}
	if (stat === undefined) return { dev: -1, ino: -1, size: 0 }; // the load names the missing file
	if (!stat.isFile() && !stat.isDirectory()) {
		throw new ContextError(
			"io",
			"cannot read the session log (not a regular file: a FIFO, socket or device)",
			{ file },
		);
	}
	return { dev: stat.dev, ino: stat.ino, size: stat.size };
}

function diagnosticKey(d: Diagnostic): string {
	return `${d.code}\0${d.file ?? ""}\0${d.line ?? ""}\0${d.message}`;
}

function serialize(reply: Reply): string {
	try {
		return JSON.stringify(reply);
	} catch (error) {
		if (!(error instanceof RangeError)) throw error;
		return JSON.stringify(
			errorReply(reply.id, RpcCode.LoadFailed, "a message is nested too deeply to send as JSON", {
				code: "render",
				message: "a message is nested too deeply to send as JSON",
			}),
		);
	}
}

function serializeBatch(replies: Reply[]): string {
	return `[${replies.map(serialize).join(",")}]`;
}

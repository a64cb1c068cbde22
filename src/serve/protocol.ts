/**
 * JSON-RPC 2.0 as the sidecar speaks it: one JSON value per line, requests
 * in, replies out. This module turns a line into requests (or the error reply
 * the line deserves) and checks each method's params by hand: the sidecar
 * starts in the time of a render, without a schema library.
 */
import { isObject } from "../log/kinds.js";

/** The standard JSON-RPC error codes, and the one of this application. */
export const RpcCode = {
	/** The line is not JSON. */
	ParseError: -32700,
	/** JSON, but not a request (or a line over the size limit). */
	InvalidRequest: -32600,
	/** A method the sidecar does not have. */
	MethodNotFound: -32601,
	/** Bad params: a missing or empty `path`, a wrong type, an unknown name. */
	InvalidParams: -32602,
	/** A bug: the stack went to stderr. */
	InternalError: -32603,
	/** The session failed to load: `data` is `{code, file, line, column, message}`. */
	LoadFailed: -32001,
	/** `reload` found templates that do not build (the sets loaded before stay in use): `data` as for -32001. */
	ReloadFailed: -32002,
	/** The path is outside every `--root` the sidecar serves (symlinks and `..` resolved first). */
	PathRefused: -32003,
} as const;

/** The protocol's version: raised when a method or param changes meaning (additions keep it). */
export const PROTOCOL_VERSION = 2;

export type Id = string | number | null;

export interface Request {
	/** Absent for a notification, which gets no reply. */
	id?: Id;
	method: string;
	params: Record<string, unknown>;
}

export interface RpcError {
	code: number;
	message: string;
	data?: unknown;
}

export type Reply = { jsonrpc: "2.0"; id: Id } & ({ result: unknown } | { error: RpcError });

/** A request, or the error reply of something that is not one. */
export type Parsed = { request: Request } | { reply: Reply };

export function errorReply(id: Id, code: number, message: string, data?: unknown): Reply {
	return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

export function resultReply(id: Id, result: unknown): Reply {
	return { jsonrpc: "2.0", id, result };
}

/**
 * The requests of one line: one, or a batch (a JSON array) of several.
 * Whatever cannot be a request becomes its error reply, in place.
 */
export function parseLine(line: string): { batch: boolean; items: Parsed[] } {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { batch: false, items: [{ reply: errorReply(null, RpcCode.ParseError, reason) }] };
	}
	if (!Array.isArray(value)) return { batch: false, items: [toRequest(value)] };
	if (value.length === 0) {
		return { batch: false, items: [{ reply: invalid(null, "an empty batch") }] };
	}
	return { batch: true, items: value.map(toRequest) };
}

function toRequest(value: unknown): Parsed {
	if (!isObject(value)) return { reply: invalid(null, "a request is a JSON object") };
	const id = value.id;
	const validId = id === null || typeof id === "string" || typeof id === "number";
	const replyId = validId ? id : null;
	if (!("id" in value) || validId) {
		if (value.jsonrpc !== "2.0") return { reply: invalid(replyId, 'jsonrpc must be "2.0"') };
		if (typeof value.method !== "string")
			return { reply: invalid(replyId, "method must be a string") };
		const params = value.params ?? {};
		if (!isObject(params)) {
			return { reply: invalid(replyId, "params must be an object (named parameters)") };
		}
		return {
			request: { ...("id" in value ? { id: replyId } : {}), method: value.method, params },
		};
	}
	return { reply: invalid(null, "id must be a string, a number or null") };
}

function invalid(id: Id, reason: string): Reply {
	return errorReply(id, RpcCode.InvalidRequest, `Invalid Request: ${reason}`);
}

/** A params problem: becomes a -32602 reply. */
export class ParamsError extends Error {}

/** What each param of a method may be. */
type Kind = "string" | "strings" | "format" | "boolean";
const FORMATS = ["llm", "agent"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * Checks `params` against `spec` (every param optional unless listed in
 * `required`); an unknown name is refused too, so a typo never goes unnoticed.
 */
export function checkParams<T>(
	params: Record<string, unknown>,
	spec: Record<string, Kind>,
	required: readonly string[] = [],
): T {
	for (const name of required) {
		if (params[name] === undefined) throw new ParamsError(`missing param "${name}"`);
	}
	for (const [name, value] of Object.entries(params)) {
		const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
		if (kind === undefined) {
			const known = Object.keys(spec).join(", ");
			throw new ParamsError(`unknown param "${name}" (known: ${known || "none"})`);
		}
		if (value === undefined) continue;
		if (!fits(kind, value)) throw new ParamsError(`param "${name}" must be ${EXPECTED[kind]}`);
	}
	return params as T;
}

function fits(kind: Kind, value: unknown): boolean {
	switch (kind) {
		case "string":
			return typeof value === "string";
		case "strings":
			return Array.isArray(value) && value.every((v) => typeof v === "string");
		case "boolean":
			return typeof value === "boolean";
		case "format":
			return (FORMATS as readonly unknown[]).includes(value);
	}
}

const EXPECTED: Record<Kind, string> = {
	string: "a string",
	strings: "an array of strings",
	boolean: "true or false",
	format: FORMATS.map((f) => `"${f}"`).join(" or "),
};

/** The params of `load` (`path` required). */
export interface LoadParams {
	/** The session log (a theway or pi log, or a Claude Code or Codex file). */
	path: string;
	/** End the branch at this entry id instead of the latest entry. */
	leaf?: string;
	/** The tool inventory (default: the session's tools metadata). */
	tools?: string[];
	/** The memory text (default: the session's memory metadata). */
	memory?: string;
	/** The working directory (default: the metadata, then the header). */
	cwd?: string;
	/** Render with this template set, whatever the session pins. */
	templateVersion?: string;
	/** The cursor of an earlier reply for this path: only the new messages come back. */
	since?: string;
	/** `llm` (default): provider-ready, as `render --format llm`; `agent`: the messages as stored. */
	format?: Format;
	/** false: every tool result whole, none as a stub (default true). */
	virtualize?: boolean;
	/** true: a damaged line fails the load instead of being skipped with a warning. */
	strict?: boolean;
}

/** Each method's params and which are required: the schema {@link checkParams} checks. */
export const METHODS = {
	load: {
		params: {
			path: "string",
			leaf: "string",
			tools: "strings",
			memory: "string",
			cwd: "string",
			templateVersion: "string",
			since: "string",
			format: "format",
			virtualize: "boolean",
			strict: "boolean",
		},
		required: ["path"],
	},
	close: { params: { path: "string" }, required: ["path"] },
	reload: { params: {}, required: [] },
	version: { params: {}, required: [] },
	shutdown: { params: {}, required: [] },
} as const satisfies Record<string, { params: Record<string, Kind>; required: readonly string[] }>;

export type Method = keyof typeof METHODS;

/** `params` checked against the schema of `method`. */
export function paramsOf<T>(method: Method, params: Record<string, unknown>): T {
	const { params: spec, required } = METHODS[method];
	return checkParams<T>(params, spec, required);
}

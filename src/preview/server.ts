/**
 * The preview server: `node:http` on 127.0.0.1 only. It answers only to a
 * `Host` of `localhost` or `127.0.0.1` with its own port (a page of another
 * site that rebinds its name to 127.0.0.1 gets 403), serves a fixed set of
 * routes (no route maps to a file path), and names sessions by the ids of its
 * own catalogue. Template changes reach every open page as Server-Sent Events.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextError } from "../errors.js";
import { readUnits, Units, type UnitsSpec } from "../measure/units.js";
import { PACKAGE_ROOT } from "../templates/load.js";
import { DEBOUNCE_MS, templateTargets, Watcher } from "../templates/watch.js";
import type { TokenizerName } from "../text/tokenizer.js";
import type { EvalSource } from "./eval-view.js";
import { EventHub } from "./events.js";
import type { ReplaySource } from "./replay-view.js";
import { type Answer, CLIENT_MODULES, type Reply, route, text } from "./routes.js";
import { SessionCatalog } from "./sessions.js";
import { Workspace } from "./workspace.js";

export const HOST = "127.0.0.1";
/** The most folders of session logs watched for appends. */
const MAX_WATCHED_FOLDERS = 256;

export interface PreviewOptions {
	/** A session log or a folder of them. */
	sessions: string;
	/** The templates folder. */
	templates: string;
	/** 0 picks a free port. */
	port: number;
	/** Paths shown on the page are relative to it. */
	cwd: string;
	/** How tokens are counted: an encoding for every model, or a units table (default: the shipped one, per model). */
	tokenizer?: TokenizerName | UnitsSpec;
	/** What replays a session for the page's replay view (the command line passes `replay`'s). */
	replay?: ReplaySource;
	/** The sessions' tools (`--tools FILE`), in place of their own. */
	tools?: readonly string[];
	/** An eval report for the page's eval view (`preview --eval FILE`). */
	eval?: EvalSource;
}

export interface PreviewServer {
	url: string;
	port: number;
	catalog: SessionCatalog;
	workspace: Workspace;
	close(): Promise<void>;
}

/** Starts the preview; rejects with a located error when the port is taken. */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
	const catalog = new SessionCatalog(options.sessions);
	const spec = options.tokenizer ?? { table: readUnits() };
	const units = new Units(typeof spec === "string" ? { name: spec } : spec);
	const view = options.tools === undefined ? {} : { tools: options.tools };
	const workspace = new Workspace(options.templates, options.cwd, units, view);
	const hub = new EventHub();
	const context = {
		catalog,
		workspace,
		scripts: readClientScripts(),
		...(options.replay === undefined ? {} : { replay: options.replay }),
		...(options.eval === undefined ? {} : { eval: options.eval }),
	};
	let port = options.port;

	const server = createServer((request, response) => {
		let reply: Reply;
		if (!allowedHost(request.headers.host, port)) {
			reply = text(403, "forbidden: this server answers only to localhost\n");
		} else if (request.method !== "GET" && request.method !== "HEAD") {
			reply = text(405, "method not allowed\n");
		} else {
			try {
				reply = route(new URL(request.url ?? "/", "http://localhost"), context);
			} catch (error) {
				reply = text(500, `internal error: ${(error as Error).message}\n`);
			}
		}
		if (reply === "events" && request.method === "GET") hub.open(response, workspace.generation);
		else if (reply === "events") send(response, text(200, ""));
		else send(response, reply);
	});

	const templates = new Watcher(
		templateTargets(workspace.templates, dirname(workspace.templates)),
		() => {
			workspace.refresh();
			hub.broadcast({ generation: workspace.generation, what: "templates" });
		},
		DEBOUNCE_MS,
		false, // the server keeps the process alive, not the watches
	);
	const sessions = new Watcher(
		() => sessionTargets(catalog),
		(paths) => {
			const listed = (p: string) => catalog.get(idOf(catalog, p)) !== undefined;
			const added = !catalog.single && paths.some((p) => existsSync(p) !== listed(p));
			if (added) catalog.rescan();
			const ids = paths.filter(listed).map((p) => idOf(catalog, p));
			catalog.restat(ids);
			if (ids.length > 0 || added) {
				hub.broadcast({
					generation: workspace.generation,
					what: "sessions",
					sessions: ids,
					listChanged: added,
				});
			}
		},
		DEBOUNCE_MS,
		false,
	);

	await new Promise<void>((resolvePromise, reject) => {
		server.once("error", (error: NodeJS.ErrnoException) => {
			templates.close();
			sessions.close();
			hub.close();
			reject(
				error.code === "EADDRINUSE"
					? new ContextError(
							"io",
							`port ${options.port} on ${HOST} is already in use; choose another with --port N, or --port 0 for a free one`,
						)
					: error,
			);
		});
		server.listen(options.port, HOST, () => resolvePromise());
	});
	port = (server.address() as AddressInfo).port;
	return {
		url: `http://${HOST}:${port}/`,
		port,
		catalog,
		workspace,
		close: () =>
			new Promise<void>((done) => {
				templates.close();
				sessions.close();
				hub.close();
				server.close(() => done());
				server.closeAllConnections();
			}),
	};
}

/** `localhost` (in any case, as host names go) or `127.0.0.1`, with this server's port: nothing else. */
export function allowedHost(host: string | undefined, port: number): boolean {
	const name = host?.toLowerCase();
	return name === `127.0.0.1:${port}` || name === `localhost:${port}`;
}

function send(response: ServerResponse, { status, type, body }: Answer): void {
	response.writeHead(status, {
		"content-type": `${type}; charset=utf-8`,
		"cache-control": "no-store",
		"x-content-type-options": "nosniff",
		"content-security-policy":
			"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
		"referrer-policy": "no-referrer",
		"cross-origin-resource-policy": "same-origin",
	});
	response.end(response.req.method === "HEAD" ? undefined : body);
}

/** The page's script modules: built beside this module, or in `dist/` when run from the sources. */
function readClientScripts(): Map<string, string> {
	const here = dirname(fileURLToPath(import.meta.url));
	const dir = [join(here, "client"), join(PACKAGE_ROOT, "dist/preview/client")].find((d) =>
		existsSync(join(d, "app.js")),
	);
	const scripts = new Map<string, string>();
	if (dir === undefined) return scripts;
	for (const name of CLIENT_MODULES) {
		const file = join(dir, name);
		if (existsSync(file)) scripts.set(`/${name}`, readFileSync(file, "utf8"));
	}
	return scripts;
}

/** The folders holding the catalogue's logs, watched one by one (never a whole tree). */
function sessionTargets(catalog: SessionCatalog) {
	const folders = new Set<string>([catalog.folder]);
	for (const { id } of catalog.page(0, Number.MAX_SAFE_INTEGER).items) {
		if (folders.size >= MAX_WATCHED_FOLDERS) break;
		const entry = catalog.get(id);
		if (entry !== undefined) folders.add(dirname(entry.file));
	}
	return [...folders].map((dir) => ({ dir, accept: (name: string) => name.endsWith(".jsonl") }));
}

/** The catalogue id a changed path would have. */
function idOf(catalog: SessionCatalog, path: string): string {
	return relative(catalog.folder, path).split(sep).join("/");
}

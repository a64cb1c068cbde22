/**
 * The language server for template sets: LSP over any pair of streams, with
 * the build step's checks as diagnostics, completion, hover, definition,
 * document symbols, a render command and watched-file reloads. Each handler
 * answers from the documents' unsaved texts; a handler that fails answers
 * with nothing and logs why, so that no request can end the server.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
	type Connection,
	DidChangeWatchedFilesNotification,
	ResponseError,
	TextDocumentSyncKind,
	TextDocuments,
} from "vscode-languageserver";
import { createConnection } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { ContextError } from "../errors.js";
import { findSessionLogs } from "../log/files.js";
import { complete } from "./completion.js";
import { renderTemplate } from "./fixtures.js";
import { hover } from "./hover.js";
import { Publisher } from "./publish.js";
import { definition, documentSymbols } from "./symbols.js";
import { findTemplatesRoot, TemplatesFolder } from "./workspace.js";

/** The commands `workspace/executeCommand` runs. */
export const RENDER_COMMAND = "theway-context.render";
export const FIXTURES_COMMAND = "theway-context.fixtures";

export interface LspOptions {
	/** The templates folder of every document (default: found from each file upward). */
	templates?: string;
	/** The fixture sessions (default: `test/fixtures` beside the templates folder). */
	fixtures?: string;
}

const pathOf = (uri: string): string | undefined => {
	try {
		return uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
	} catch {
		return undefined;
	}
};

/** Serves LSP on `input`/`output` until the client sends `exit`. */
export function startServer(
	input: NodeJS.ReadableStream,
	output: NodeJS.WritableStream,
	options: LspOptions = {},
): Connection {
	const connection = createConnection(input, output);
	const documents = new TextDocuments(TextDocument);
	const overlay = new Map<string, string>();
	const folders = new Map<string, TemplatesFolder>();
	let fixturesDir = options.fixtures === undefined ? undefined : resolve(options.fixtures);
	const fixtureLists = new Map<string, string[]>();
	const log = (message: string) => connection.console.error(message);

	const fixturesOf = (folder: TemplatesFolder): string[] => {
		const dir = fixturesDir ?? join(dirname(folder.root), "test", "fixtures");
		const list = fixtureLists.get(dir) ?? findSessionLogs(dir);
		fixtureLists.set(dir, list);
		return list;
	};
	const publisher = new Publisher({
		publish: (uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }),
		openText: (file) => overlay.get(file),
		fixtures: fixturesOf,
		log,
	});
	const folderOf = (file: string): TemplatesFolder | undefined => {
		const root =
			options.templates === undefined ? findTemplatesRoot(file) : resolve(options.templates);
		if (root === undefined) return undefined;
		const folder = folders.get(root) ?? new TemplatesFolder(root, overlay);
		folders.set(root, folder);
		return folder;
	};
	/** The document at `uri` with what a handler needs: its folder, its set's texts, its name. */
	const context = (uri: string) => {
		const file = pathOf(uri);
		const document = documents.get(uri);
		const folder = file === undefined ? undefined : folderOf(file);
		if (file === undefined || document === undefined || folder === undefined) return undefined;
		const sets = folder.sets();
		const source = [...sets.values()].find((s) => dirname(file) === s.dir);
		if (source === undefined) return undefined;
		const name = file.slice(source.dir.length + 1).replace(/\.hbs$/, "");
		return { file, document, folder, sets, source, name, texts: source.templates };
	};
	const safely =
		<P, R>(what: string, handler: (params: P) => R) =>
		(params: P): R | null => {
			try {
				return handler(params);
			} catch (error) {
				if (error instanceof ResponseError) throw error;
				log(`${what} failed: ${(error as Error).stack ?? error}`);
				return null;
			}
		};

	let watchDynamic = false;
	connection.onInitialize((params) => {
		const init = (params.initializationOptions ?? {}) as LspOptions;
		if (options.templates === undefined && typeof init.templates === "string")
			options.templates = init.templates;
		if (fixturesDir === undefined && typeof init.fixtures === "string")
			fixturesDir = resolve(init.fixtures);
		watchDynamic =
			params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
		return {
			capabilities: {
				textDocumentSync: TextDocumentSyncKind.Incremental,
				completionProvider: { triggerCharacters: [".", "{", ">", "/", "@", " ", "|"] },
				hoverProvider: true,
				definitionProvider: true,
				documentSymbolProvider: true,
				executeCommandProvider: { commands: [RENDER_COMMAND, FIXTURES_COMMAND] },
			},
			serverInfo: { name: "theway-context" },
		};
	});
	connection.onInitialized(() => {
		if (!watchDynamic) return;
		const globs = ["**/*.hbs", "**/lock.json", "**/categories.yaml", "**/*.jsonl"];
		void connection.client.register(DidChangeWatchedFilesNotification.type, {
			watchers: globs.map((globPattern) => ({ globPattern })),
		});
	});

	documents.onDidChangeContent((e) => {
		const file = pathOf(e.document.uri);
		if (file === undefined) return;
		overlay.set(file, e.document.getText());
		const folder = folderOf(file);
		if (folder?.owns(file)) publisher.touch(folder, file);
	});
	documents.onDidClose((e) => {
		const file = pathOf(e.document.uri);
		if (file === undefined) return;
		overlay.delete(file);
		const folder = folderOf(file);
		if (folder !== undefined) publisher.touch(folder);
	});
	connection.onDidChangeWatchedFiles((params) => {
		for (const change of params.changes) {
			const file = pathOf(change.uri);
			if (file === undefined) continue;
			if (file.endsWith(".jsonl")) {
				fixtureLists.clear();
				publisher.forgetMeasures();
			}
			for (const folder of folders.values()) {
				if (folder.owns(file) || file.endsWith(".jsonl")) {
					folder.reload();
					publisher.touch(folder);
				}
			}
		}
	});

	connection.onCompletion(
		safely("completion", (p) => {
			const c = context(p.textDocument.uri);
			return c === undefined
				? []
				: complete(c.texts, c.name, c.document, c.document.offsetAt(p.position));
		}),
	);
	connection.onHover(
		safely("hover", (p) => {
			const c = context(p.textDocument.uri);
			if (c === undefined) return null;
			const largest = publisher.measures.get(c.source.dir)?.measure.largest;
			const show = (fixture: string) => `\`${relative(dirname(c.folder.root), fixture)}\``;
			return (
				hover(c.texts, c.name, c.document, c.document.offsetAt(p.position), { largest, show }) ??
				null
			);
		}),
	);
	connection.onDefinition(
		safely("definition", (p) => {
			const c = context(p.textDocument.uri);
			return c === undefined
				? null
				: (definition(c.texts, c.document, c.document.offsetAt(p.position)) ?? null);
		}),
	);
	connection.onDocumentSymbol(
		safely("documentSymbol", (p) => {
			const c = context(p.textDocument.uri);
			return c === undefined ? [] : documentSymbols(c.document, c.file);
		}),
	);
	connection.onExecuteCommand(
		safely("executeCommand", (p) => {
			const [arg] = (p.arguments ?? []) as [{ uri?: string; fixture?: string } | undefined];
			const c = typeof arg?.uri === "string" ? context(arg.uri) : undefined;
			if (c === undefined)
				throw new ResponseError(-32602, "expected [{ uri, fixture? }] of an open template");
			const fixtures = fixturesOf(c.folder);
			if (p.command === FIXTURES_COMMAND) return { fixtures };
			if (p.command !== RENDER_COMMAND)
				throw new ResponseError(-32601, `unknown command ${p.command}`);
			const fixture = arg?.fixture === undefined ? fixtures[0] : resolve(arg.fixture);
			if (fixture === undefined) throw new ResponseError(-32602, "no fixture sessions to render");
			try {
				const text = renderTemplate(c.folder.root, c.sets, c.source, c.name, fixture);
				return { template: c.name, fixture, text };
			} catch (error) {
				if (!(error instanceof ContextError)) throw error;
				throw new ResponseError(-32603, error.message);
			}
		}),
	);

	documents.listen(connection);
	connection.listen();
	return connection;
}

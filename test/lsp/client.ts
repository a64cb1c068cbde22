/**
 * An LSP client for tests: the server as a child process, driven over its
 * stdin and stdout with vscode-jsonrpc as an editor would, plus the waits a
 * test needs (the next diagnostics published for a file).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
	createMessageConnection,
	type MessageConnection,
	StreamMessageReader,
	StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { lockInputOf } from "../../src/lsp/diagnostics.js";
import { nextLock } from "../../src/rules/lock.js";
import { fingerprintOf } from "../../src/templates/compile.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { tempDir } from "../support/temp.js";
import { templateSet } from "../support/template-sets.js";

export const ROOT = join(import.meta.dirname, "../..");
const CHILD = join(ROOT, "test/lsp/server-child.mjs");

export interface LspDiagnostic {
	range: { start: { line: number; character: number }; end: { line: number; character: number } };
	severity?: number;
	code?: string;
	message: string;
}

export interface Published {
	uri: string;
	diagnostics: LspDiagnostic[];
}

export interface LspClient {
	connection: MessageConnection;
	child: ChildProcessWithoutNullStreams;
	stderr: () => string;
	/** Resolves with the exit code when the server process ends. */
	exited: Promise<number | null>;
	/** The next diagnostics published for `file` (after this call) that satisfy `accept`. */
	diagnostics(file: string, accept?: (ds: LspDiagnostic[]) => boolean): Promise<LspDiagnostic[]>;
	/** Every publication so far. */
	published: Published[];
	initialize(options?: Record<string, unknown>): Promise<Record<string, unknown>>;
	open(file: string, text: string): void;
	change(file: string, text: string, version: number): void;
	close(): Promise<void>;
}

export const uriOf = (file: string) => pathToFileURL(file).href;

/** Starts `theway-context lsp --stdio ARGS…` and connects to it. */
export function startLsp(args: string[] = [], cwd = ROOT): LspClient {
	const child = spawn(process.execPath, [CHILD, "--stdio", ...args], { cwd });
	let stderr = "";
	child.stderr.on("data", (d: Buffer) => {
		stderr += d.toString();
	});
	const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
	const connection = createMessageConnection(
		new StreamMessageReader(child.stdout),
		new StreamMessageWriter(child.stdin),
	);
	const published: Published[] = [];
	const waiters: {
		uri: string;
		accept: (ds: LspDiagnostic[]) => boolean;
		done: (ds: LspDiagnostic[]) => void;
	}[] = [];
	connection.onNotification("textDocument/publishDiagnostics", (p: Published) => {
		published.push(p);
		for (const w of [...waiters]) {
			if (w.uri === p.uri && w.accept(p.diagnostics)) {
				waiters.splice(waiters.indexOf(w), 1);
				w.done(p.diagnostics);
			}
		}
	});
	connection.onNotification("window/logMessage", () => {});
	connection.onRequest("client/registerCapability", () => null);
	connection.listen();
	return {
		connection,
		child,
		stderr: () => stderr,
		exited,
		published,
		diagnostics: (file, accept = () => true) =>
			new Promise((done) => waiters.push({ uri: uriOf(file), accept, done })),
		initialize: async (options = {}) =>
			(await connection.sendRequest("initialize", {
				processId: null,
				rootUri: null,
				capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
				initializationOptions: options,
			})) as Record<string, unknown>,
		open: (file, text) =>
			void connection.sendNotification("textDocument/didOpen", {
				textDocument: { uri: uriOf(file), languageId: "handlebars", version: 1, text },
			}),
		change: (file, text, version) =>
			void connection.sendNotification("textDocument/didChange", {
				textDocument: { uri: uriOf(file), version },
				contentChanges: [{ text }],
			}),
		close: async () => {
			if (child.exitCode === null) {
				await connection.sendRequest("shutdown").catch(() => {});
				await connection.sendNotification("exit").catch(() => {});
			}
			await exited;
			connection.dispose();
		},
	};
}

/** The position just after the end of `text`. */
export function endOf(text: string): { line: number; character: number } {
	const lines = text.split("\n");
	return { line: lines.length - 1, character: (lines.at(-1) as string).length };
}

/** A server on a copy of the newest bundled set (as `v1`, with its lock) and one fixture, initialized. */
export async function startOnCopy(): Promise<{
	lsp: LspClient;
	root: string;
	fixtures: string;
	capabilities: Record<string, unknown>;
	file: (name: string) => string;
	text: (name: string) => string;
}> {
	const root = templateSet();
	const sources = [...readTemplateSets(root).values()];
	const lock = nextLock(sources.map((s) => lockInputOf(s, fingerprintOf(s))));
	writeFileSync(join(root, "lock.json"), `${JSON.stringify(lock, null, "\t")}\n`);
	const fixtures = tempDir("theway-lsp-fixtures-");
	copyFileSync(
		join(ROOT, "test/fixtures/examples/1-normal.jsonl"),
		join(fixtures, "1-normal.jsonl"),
	);
	const lsp = startLsp(["--templates", root, "--fixtures", fixtures]);
	const init = await lsp.initialize();
	void lsp.connection.sendNotification("initialized", {});
	const file = (name: string) => join(root, "v1", `${name}.hbs`);
	return {
		lsp,
		root,
		fixtures,
		capabilities: init.capabilities as Record<string, unknown>,
		file,
		text: (name) => readFileSync(file(name), "utf8"),
	};
}

/** Driving the sidecar in tests: in process over two streams, or as a real process. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { type Diagnostic, formatDiagnostic } from "../../src/errors.js";
import { Sidecar, type SidecarOptions } from "../../src/serve/server.js";
import { serveStreams } from "../../src/serve/stdio.js";

export const ROOT = join(import.meta.dirname, "../..");

/** A reply as the sidecar writes it. */
export interface Reply {
	jsonrpc: "2.0";
	id: string | number | null;
	result?: Record<string, unknown> & { messages?: unknown[] };
	error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** Lines in, replies out: `send` writes a line, `next` awaits the next reply. */
export interface Client {
	send(request: unknown): void;
	next(): Promise<Reply>;
	call(method: string, params?: unknown): Promise<Reply>;
	/** Resolves when the server stopped. */
	done: Promise<unknown>;
	end(): void;
}

function client(
	write: (line: string) => void,
	lines: AsyncIterable<string>,
	done: Promise<unknown>,
	end: () => void,
): Client {
	const iterator = lines[Symbol.asyncIterator]();
	let id = 0;
	const next = async () => {
		const { value, done: over } = await iterator.next();
		if (over) throw new Error("the server closed its output");
		return JSON.parse(value) as Reply;
	};
	const send = (request: unknown) =>
		write(`${typeof request === "string" ? request : JSON.stringify(request)}\n`);
	return {
		send,
		next,
		async call(method, params) {
			send({ jsonrpc: "2.0", id: ++id, method, ...(params === undefined ? {} : { params }) });
			return next();
		},
		done,
		end,
	};
}

/** The sidecar in this process, on two in-memory streams. */
export function inProcess(options: Partial<SidecarOptions> & { maxRequestBytes?: number } = {}): {
	client: Client;
	sidecar: Sidecar;
	logs: string[];
} {
	const input = new PassThrough();
	const output = new PassThrough();
	const logs: string[] = [];
	const full = {
		maxSessions: 8,
		warn: (d: Diagnostic) => logs.push(formatDiagnostic(d)),
		bug: (error: unknown) => logs.push(String((error as Error)?.stack ?? error)),
		...options,
	};
	const sidecar = new Sidecar(full);
	const done = serveStreams(input, output, full, sidecar).finally(() => output.end());
	const lines = createInterface({ input: output, crlfDelay: Number.POSITIVE_INFINITY });
	return {
		client: client(
			(line) => input.write(line),
			lines,
			done,
			() => input.end(),
		),
		sidecar,
		logs,
	};
}

/**
 * The CLI as a real process, its sources run through vite's module runner
 * (no build needed): `node test/support/cli-child.mjs ARGS…`.
 */
export const CLI_CHILD = [join(ROOT, "test/support/cli-child.mjs")];

/** `theway-context serve --stdio ARGS…` as a child process. */
export function spawned(args: string[] = []): {
	client: Client;
	child: ChildProcessWithoutNullStreams;
	stderr: () => string;
} {
	const child = spawn(process.execPath, [...CLI_CHILD, "serve", "--stdio", ...args], {
		cwd: ROOT,
	});
	let stderr = "";
	child.stderr.on("data", (data: Buffer) => {
		stderr += data.toString();
	});
	const done = new Promise((resolve) =>
		child.on("close", (code, signal) => resolve({ code, signal })),
	);
	const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
	return {
		client: client(
			(line) => child.stdin.write(line),
			lines,
			done,
			() => child.stdin.end(),
		),
		child,
		stderr: () => stderr,
	};
}

/**
 * The reader against what the file system can hand it instead of a log: a
 * FIFO with no writer, an endless stream (/dev/zero, a pipe fed forever), a
 * directory, a symlink loop, a path through a file, a name too long, a file
 * without read permission. Each must end, in a child process with a time
 * limit, with a located ContextError (the file named) or a bundle: never
 * another exception, a crash or a hang.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const LIMIT_MS = 20_000;
const dir = mkdtempSync(join(tmpdir(), "theway-context-files-"));
const writers: ChildProcess[] = [];
afterAll(() => {
	for (const w of writers) w.kill();
	rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
	loaded?: boolean;
	contextError?: boolean;
	code?: string;
	file?: string;
	message?: string;
}

/**
 * Loads `path` in a child process (sources through vite's module runner)
 * with a small heap and a time limit. `undefined` when it did not finish.
 */
function loadInChild(path: string, options: Record<string, unknown> = {}) {
	const script = `
import { runnerImport } from "vite";
const { module } = await runnerImport(${JSON.stringify(join(ROOT, "src/index.ts"))}, {
	root: ${JSON.stringify(ROOT)}, configFile: false, logLevel: "silent",
});
let out;
try {
	new module.ContextService(${JSON.stringify(options)}).loadSync(process.env.SESSION_LOG);
	out = { loaded: true };
} catch (e) {
	out = { contextError: e instanceof module.ContextError, code: e?.code, file: e?.file, message: String(e?.message) };
}
process.stdout.write("RESULT " + JSON.stringify(out) + "\\n");
process.exit(0);
`;
	const child = spawnSync(
		process.execPath,
		["--max-old-space-size=192", "--input-type=module", "-e", script],
		{ cwd: ROOT, env: { ...process.env, SESSION_LOG: path }, encoding: "utf8", timeout: LIMIT_MS },
	);
	const line = child.stdout?.split("\n").find((l) => l.startsWith("RESULT "));
	const detail = `status ${child.status}, signal ${child.signal}, stderr: ${(child.stderr ?? "").slice(0, 400)}`;
	return {
		outcome: line === undefined ? undefined : (JSON.parse(line.slice(7)) as Outcome),
		detail,
	};
}

/** A located ContextError naming `path`, or a bundle. */
function expectHandled(path: string, options: Record<string, unknown> = {}): Outcome {
	const { outcome, detail } = loadInChild(path, options);
	expect(outcome, `no result in ${LIMIT_MS} ms (${detail})`).toBeDefined();
	const o = outcome as Outcome;
	if (o.loaded !== true) {
		expect(o.contextError, `not a ContextError: ${o.message}`).toBe(true);
		expect(o.file, o.message).toBe(path);
	}
	return o;
}

const HEADER = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" })}\n`;
const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
const isRoot = process.getuid?.() === 0;

/** A FIFO at a new path; `feed` starts a writer process for it. */
function fifo(name: string): string {
	const path = join(dir, name);
	spawnSync("mkfifo", [path]);
	return path;
}
function feed(path: string, script: string): void {
	const writer = spawn(process.execPath, ["-e", script, path], { stdio: "ignore" });
	writers.push(writer);
}

describe("special files as the session log", () => {
	it.skipIf(!hasMkfifo)("a FIFO with no writer: an error, not a hang", () => {
		expectHandled(fifo("no-writer.jsonl"));
	});

	it.skipIf(!hasMkfifo)("a FIFO a writer fills with a log and closes: read like a file", () => {
		const path = fifo("log.jsonl");
		feed(
			path,
			`require("fs").writeFileSync(process.argv[1], ${JSON.stringify(`${HEADER}{"type":"message","id":"u","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi"}}\n`)})`,
		);
		const o = expectHandled(path);
		expect(o.loaded, o.message).toBe(true);
	});

	it.skipIf(!hasMkfifo)("an endless stream without a newline: line_too_long, bounded", () => {
		const path = fifo("endless.jsonl");
		feed(
			path,
			`const fs = require("fs"); const fd = fs.openSync(process.argv[1], "w"); const b = Buffer.alloc(1 << 16, 0x78); try { for (;;) fs.writeSync(fd, b); } catch {}`,
		);
		const o = expectHandled(path, { maxLineBytes: 1 << 20 });
		expect(o.code).toBe("line_too_long");
	});

	it.skipIf(!existsSync("/dev/zero"))("/dev/zero: line_too_long, bounded", () => {
		const o = expectHandled("/dev/zero", { maxLineBytes: 1 << 20 });
		expect(o.code).toBe("line_too_long");
	});

	it("a directory: io", () => {
		const path = join(dir, "a-folder.jsonl");
		mkdirSync(path);
		expect(expectHandled(path).code).toBe("io");
	});

	it("a symlink loop: io", () => {
		const a = join(dir, "loop-a.jsonl");
		const b = join(dir, "loop-b.jsonl");
		symlinkSync(b, a);
		symlinkSync(a, b);
		expect(expectHandled(a).code).toBe("io");
	});

	it("a path through a file, a missing file, a name too long: io", () => {
		const file = join(dir, "plain.jsonl");
		writeFileSync(file, HEADER);
		expect(expectHandled(join(file, "inside.jsonl")).code).toBe("io");
		expect(expectHandled(join(dir, "missing.jsonl")).code).toBe("io");
		expect(expectHandled(join(dir, `${"n".repeat(300)}.jsonl`)).code).toBe("io");
	});

	it("a file without read permission: io", (context) => {
		if (isRoot) {
			console.warn(
				"\n!!! running as root, which reads any file: the no-read-permission case is SKIPPED\n",
			);
			context.skip();
		}
		const path = join(dir, "secret.jsonl");
		writeFileSync(path, HEADER);
		chmodSync(path, 0o000);
		expect(expectHandled(path).code).toBe("io");
	});
});

/**
 * The file system edge: every failure of stat, open or read is a located
 * ContextError("io"), and a session that is not a regular file (standard
 * input, a FIFO, a device) is streamed: read once, never by position, its
 * lines bounded.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContextError, ContextService } from "../../src/index.js";
import { MAX_SKIPPED_BEFORE_HEADER } from "../../src/log/parse.js";
import { HEADER, user } from "../support/session.js";

const dir = mkdtempSync(join(tmpdir(), "theway-context-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROOT = join(import.meta.dirname, "..", "..");
const LOG = `${JSON.stringify(HEADER)}\n${JSON.stringify(user("u1", null, "through a pipe"))}\n`;

async function errorOf(path: string, options = {}): Promise<ContextError> {
	try {
		await new ContextService(options).load(path);
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error(`expected loading ${path} to fail`);
}

describe("file system failures are located io errors", () => {
	it("names a symlink loop, a path through a file and a name too long", async () => {
		const loop = join(dir, "loop");
		symlinkSync(loop, loop);
		const file = join(dir, "plain");
		writeFileSync(file, LOG);
		const cases: [string, RegExp][] = [
			[loop, /ELOOP/],
			[join(file, "below.jsonl"), /ENOTDIR/],
			[join(dir, `${"n".repeat(300)}.jsonl`), /ENAMETOOLONG/],
		];
		for (const [path, reason] of cases) {
			const error = await errorOf(path);
			expect(error).toMatchObject({ code: "io", file: path });
			expect(error.reason).toMatch(reason);
			expect(() => new ContextService().loadSync(path)).toThrow(ContextError);
		}
	});

	it.skipIf(process.getuid?.() === 0)("names a folder without read permission", async () => {
		const closed = join(dir, "closed");
		mkdirSync(closed);
		writeFileSync(join(closed, "s.jsonl"), LOG);
		chmodSync(closed, 0);
		try {
			const error = await errorOf(join(closed, "s.jsonl"));
			expect(error).toMatchObject({ code: "io" });
			expect(error.reason).toMatch(/EACCES/);
		} finally {
			chmodSync(closed, 0o700);
		}
	});
});

describe("streams", () => {
	it("reads a FIFO once, as a stream, while a writer fills it", async () => {
		const fifo = join(dir, "fifo-1");
		spawnSync("mkfifo", [fifo]);
		const writer = spawn("sh", ["-c", `sleep 0.2; printf '%s' "$LOG" > "${fifo}"`], {
			env: { ...process.env, LOG },
		});
		const closed = new Promise((resolve) => writer.on("close", resolve));
		const service = new ContextService({ pipeTimeoutMs: 5000 });
		const bundle = await service.load(fifo);
		expect(bundle.messages).toEqual([expect.objectContaining({ content: "through a pipe" })]);
		await closed;
	});

	it("fails with a clear error when no one writes to a FIFO", async () => {
		const fifo = join(dir, "fifo-2");
		spawnSync("mkfifo", [fifo]);
		const error = await errorOf(fifo, { pipeTimeoutMs: 200 });
		expect(error).toMatchObject({ code: "io", file: fifo });
		expect(error.reason).toMatch(/nothing to read from the pipe after 200 ms/);
		expect(() => new ContextService({ pipeTimeoutMs: 100 }).loadSync(fifo)).toThrow(/no writer/);
	});

	it("bounds an endless device by the line length: a located line_too_long, never a byte at a time", async () => {
		const error = await errorOf("/dev/zero", { maxLineBytes: 1024 * 1024 });
		expect(error).toMatchObject({ code: "line_too_long", file: "/dev/zero", line: 1 });
	});

	it("bounds an endless stream of lines that are not JSON: no header in the first lines it skips", () => {
		const run = spawnSync(
			"sh",
			["-c", `yes '// not a log' | node ${join(ROOT, "dist", "cli", "bin.cjs")} render -`],
			{ encoding: "utf8", timeout: 20_000 },
		);
		expect(run.status).toBe(1);
		expect(run.stderr).toMatch(
			new RegExp(`<stdin>:${MAX_SKIPPED_BEFORE_HEADER + 1}: error: no session header in the first`),
		);
	});

	it("reads standard input for `-` and /dev/stdin in the CLI", () => {
		for (const path of ["-", "/dev/stdin"]) {
			const child = spawnSync(
				process.execPath,
				[join(ROOT, "test/support/cli-child.mjs"), "render", path, "--format", "json"],
				{
					cwd: ROOT,
					input: LOG,
					encoding: "utf8",
					timeout: 30_000,
				},
			);
			expect(child.status, child.stderr).toBe(0);
			const bundle = JSON.parse(child.stdout);
			expect(bundle.messages[0].content).toBe("through a pipe");
			expect(bundle.meta.file).toBe(path === "-" ? "<stdin>" : path);
		}
	});
});

/**
 * The process's output written with blocking writes: a non-blocking pipe
 * that fills up is waited for and written on from the byte where a write
 * stopped (multi-byte characters included), a reader that stops early ends
 * the process quietly, and a write that fails otherwise is a located error.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isPipeOrFile, writeAll } from "../../src/cli/stdio.js";
import { ContextError } from "../../src/errors.js";
import { tempDir } from "../support/temp.js";

const BIN = join(import.meta.dirname, "../../dist/cli/bin.cjs");

describe("writeAll", () => {
	it("writes a text whole through a full non-blocking pipe, resuming mid-character", async () => {
		const fifo = join(tempDir("theway-stdio-"), "pipe");
		execFileSync("mkfifo", [fifo]);
		// A slow reader: it counts the bytes and hands back their UTF-8 text.
		const reader = spawn(
			process.execPath,
			[
				"-e",
				`const fs = require("node:fs"); const parts = []; const fd = fs.openSync(${JSON.stringify(fifo)}, "r");
				 const buf = Buffer.alloc(4096); let n;
				 while ((n = fs.readSync(fd, buf)) > 0) { parts.push(Buffer.from(buf.subarray(0, n))); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n % 3); }
				 process.stdout.write(Buffer.concat(parts));`,
			],
			{ stdio: ["ignore", "pipe", "inherit"] },
		);
		const chunks: Buffer[] = [];
		reader.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
		const done = new Promise((resolve) => reader.on("close", resolve));
		const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
		// Three-byte and four-byte characters across the pipe's 64 KiB: writes stop mid-character.
		const text = "ab€𝄞".repeat(60_000);
		writeAll(fd, text);
		closeSync(fd);
		await done;
		expect(Buffer.concat(chunks).toString("utf8")).toBe(text);
	});

	it("says a write that fails, located at the stream", () => {
		const fd = openSync("/dev/full", "w");
		try {
			expect(() => writeAll(fd, "x")).toThrow(ContextError);
		} finally {
			closeSync(fd);
		}
	});
});

describe("the command line's output", () => {
	it("ends quietly when the reader stops early, and fails located on a full disk", () => {
		const log = join(import.meta.dirname, "../fixtures/examples/1-normal.jsonl");
		const head = spawnSync(
			"bash",
			["-c", `set -o pipefail; "${process.execPath}" "${BIN}" render "${log}" | head -c 10`],
			{
				encoding: "utf8",
			},
		);
		expect(head.status).toBe(0);
		expect(head.stderr).toBe("");
		const full = spawnSync(
			"sh",
			["-c", `"${process.execPath}" "${BIN}" render "${log}" > /dev/full`],
			{
				encoding: "utf8",
			},
		);
		expect(full.status).toBe(1);
		expect(full.stderr).toMatch(/<stdout>: error: cannot write the output \(ENOSPC/);
	});

	it("tells a pipe, a file and /dev/null from a terminal's kind of device", () => {
		const dir = tempDir("theway-stdio-");
		const file = openSync(join(dir, "out"), "w");
		const devNull = openSync("/dev/null", "w");
		const zero = openSync("/dev/zero", "r");
		try {
			expect([isPipeOrFile(file), isPipeOrFile(devNull), isPipeOrFile(zero)]).toEqual([
				true,
				true,
				false,
			]);
		} finally {
			for (const fd of [file, devNull, zero]) closeSync(fd);
		}
	});
});

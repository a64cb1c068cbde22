/** `inspect -` reads the session from standard input, as `render -` does. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HEADER, user } from "../support/session.js";

const ROOT = join(import.meta.dirname, "../..");
const LOG = `${JSON.stringify(HEADER)}\n${JSON.stringify(user("u1", null, "through a pipe"))}\n`;

describe("inspect -", () => {
	it("measures the session piped to it", () => {
		const child = spawnSync(
			process.execPath,
			[
				join(ROOT, "test/support/cli-child.mjs"),
				"inspect",
				"-",
				"--format",
				"json",
				"--tokenizer",
				"chars",
			],
			{ cwd: ROOT, input: LOG, encoding: "utf8", timeout: 30_000 },
		);
		expect(child.stderr).not.toMatch(/ENOENT|no such file/);
		expect(child.status, child.stderr).toBe(0);
		const size = JSON.parse(child.stdout);
		expect(size.messages).toHaveLength(1);
		expect(size.messages[0].preview).toContain("through a pipe");
	});
});

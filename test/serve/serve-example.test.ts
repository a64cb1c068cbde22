/** The Python client of examples/ against the sidecar, when python3 is on the machine. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { CLI_CHILD, ROOT } from "../support/serve.js";

const python = spawnSync("python3", ["--version"]).status === 0;

describe.skipIf(!python)("examples/sidecar_client.py", () => {
	it("loads a session, then only the message it appended", () => {
		const fixture = join(ROOT, "test/fixtures/examples/1-normal.jsonl");
		const child = spawnSync(
			"python3",
			[
				join(ROOT, "examples/sidecar_client.py"),
				fixture,
				"--",
				process.execPath,
				...CLI_CHILD,
				"serve",
				"--stdio",
			],
			{ encoding: "utf8", timeout: 30_000 },
		);
		expect(child.stderr).toBe("");
		expect(child.status).toBe(0);
		const out = JSON.parse(child.stdout);
		const before = new ContextService().loadSync(fixture).messages.length;
		expect(out.first).toEqual({ messages: before, from: 0 });
		expect(out.second).toEqual({
			messages: 1,
			from: before,
			reset: false,
			systemPromptSent: false,
		});
		expect(out.context.messages).toBe(before + 1);
		expect(out.last).toBe("And now the tests, please.");
	});
});

/**
 * The Python client of examples/ against the sidecar, when python3 is on the
 * machine: the context it keeps, and the same context when the sidecar dies
 * under it (its output ended before a reply, or inside one) and is started again.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { CLI_CHILD, ROOT } from "../support/serve.js";
import { tempDir } from "../support/temp.js";

const python = spawnSync("python3", ["--version"]).status === 0;

const fixture = join(ROOT, "test/fixtures/examples/1-normal.jsonl");
const SIDECAR = [process.execPath, ...CLI_CHILD, "serve", "--stdio"];

/** The example run on the fixture with `command` as its sidecar. */
function example(command: string[]) {
	return spawnSync(
		"python3",
		[join(ROOT, "examples/sidecar_client.py"), fixture, "--", ...command],
		{
			encoding: "utf8",
			timeout: 60_000,
		},
	);
}

describe.skipIf(!python)("examples/sidecar_client.py", () => {
	it("loads a session, then only the message it appended", () => {
		const child = example(SIDECAR);
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
		expect(out.restarts).toBe(0);
	});

	it.each(["eof", "partial"])(
		"survives a sidecar that dies before its second reply (%s): restarts, loads whole",
		(mode) => {
			const marker = join(tempDir("theway-dying-"), "died");
			const dying = [
				process.execPath,
				join(ROOT, "test/support/dying-sidecar.mjs"),
				mode,
				"2",
				marker,
			];
			const child = example([...dying, ...SIDECAR]);
			expect(existsSync(marker)).toBe(true); // it did die
			expect(child.stderr).toBe("");
			expect(child.status).toBe(0);
			const out = JSON.parse(child.stdout);
			const before = new ContextService().loadSync(fixture).messages.length;
			expect(out.restarts).toBe(1);
			// No cursor survives the sidecar: the new one sends the whole context, appended message included.
			expect(out.second).toEqual({
				messages: before + 1,
				from: 0,
				reset: false,
				systemPromptSent: true,
			});
			expect(out.context.messages).toBe(before + 1);
			expect(out.last).toBe("And now the tests, please.");
		},
		120_000,
	);
});

/**
 * Usage errors say the one thing that is wrong, with the command's synopsis
 * (not its whole help); a misspelt command or set name gets a "did you mean",
 * as a misspelt option does.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT } from "../support/project.js";
import { NEWEST } from "../support/template-sets.js";

const FIXTURE = join(ROOT, "test/fixtures/examples/1-normal.jsonl");

describe("usage errors", () => {
	it("a misspelt command: the one meant, and the list of commands", async () => {
		const run = await cli(ROOT, "rendr", FIXTURE);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(
			/^theway-context: error: unknown command "rendr" \(did you mean render\?\)\n/,
		);
		expect(run.stderr).toMatch(
			/\nCommands: render, inspect, .*\n\(theway-context --help for more\)\n$/,
		);
		expect(run.stdout).toBe("");
	});

	it("a command's mistake: its line and its synopsis, not its options", async () => {
		const run = await cli(ROOT, "inspect", FIXTURE, "--format", "yaml");
		expect(run.code).toBe(2);
		const lines = run.stderr.trimEnd().split("\n");
		expect(lines[0]).toBe("theway-context: error: --format must be text or json");
		expect(lines[1]).toMatch(/^Usage: theway-context inspect /);
		expect(lines.at(-1)).toBe("(theway-context inspect --help for more)");
		expect(lines.length).toBeLessThanOrEqual(4);
		expect(run.stderr).not.toContain("--tokenizer");
	});

	it("an unknown option: the closest one, and how to pass a file named -x where files go", async () => {
		const render = await cli(ROOT, "render", FIXTURE, "--formt", "llm");
		expect(render.stderr).toMatch(
			/^theway-context: error: unknown option --formt \(did you mean --format\?\); a file whose name starts with "-" goes after "--"\n/,
		);
		const build = await cli(ROOT, "build", "--updat");
		expect(build.stderr).toMatch(
			/^theway-context: error: unknown option --updat \(did you mean --update\?\)\n/,
		);
	});

	it.each([
		[NEWEST.slice(1), NEWEST],
		[NEWEST.toUpperCase(), NEWEST],
	])("--template-version %s: did you mean %s (wrong usage, exit 2)", async (given, meant) => {
		const run = await cli(ROOT, "render", FIXTURE, "--template-version", given);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(`no template set "${given}" (did you mean ${meant}?)`);
	});

	it("a set not made yet is not taken for a typo", async () => {
		const later = `v${Number(NEWEST.slice(1)) + 7}`;
		const run = await cli(ROOT, "render", FIXTURE, "--template-version", later);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(`no template set "${later}" (have:`);
	});
});

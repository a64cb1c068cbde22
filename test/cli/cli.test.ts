/**
 * The command line through `main(argv, io)`: output formats, the options of
 * `render`, exit codes 1 (bad input, located on stderr) and 2 (wrong usage,
 * usage on stderr), help, and lenient salvage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { jsonText } from "../../src/text/json-writer.js";
import { ROOT, runCli } from "../support/cli.js";
import { categoryOf, expectedSection, groupsOf } from "../support/expected.js";
import { assistant, HEADER, section, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { NEWEST } from "../support/template-sets.js";
import { hasRawControl } from "../support/terminal.js";

const EXAMPLES = join(import.meta.dirname, "..", "fixtures/examples");
const COLLAPSE_CHILD = join(EXAMPLES, "2-collapse-child.jsonl");
const INTO_EXISTING = join(EXAMPLES, "3-collapse-into-existing.jsonl");
const NO_COLLAPSE = join(EXAMPLES, "5-no-collapse-metadata.jsonl");

const run = (argv: readonly string[], cwd = ROOT) => runCli(argv, cwd);

interface JsonBundle {
	systemPrompt: string;
	messages: { role: string; content?: unknown }[];
	meta: { templateVersion: string; leafId: string | null; diagnostics: unknown[] };
}

async function renderJson(...argv: string[]): Promise<JsonBundle> {
	const result = await run(["render", ...argv, "--format", "json"]);
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as JsonBundle;
}

describe("render: text", () => {
	it("prints the system prompt and the messages with their roles", async () => {
		const result = await run(["render", COLLAPSE_CHILD]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain("<lineage>");
		expect(result.stdout).toContain("</lineage>");
		expect(result.stdout).toContain("session-456");
		expect(result.stdout).toMatch(/messages · 1 /);
		expect(result.stdout).toMatch(/^──── #0 collapse_context → user · entry \S+ · /m);
	});

	it("lists user, assistant and toolResult roles in order", async () => {
		const result = await run(["render", NO_COLLAPSE]);
		expect(result.code, result.stderr).toBe(0);
		const roles = [...result.stdout.matchAll(/^──── #\d+ (\S+) /gm)].map((m) => m[1]);
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
	});

	it("resolves a relative log path against io.cwd", async () => {
		const path = writeLog([HEADER, user("u1", null, "relative hello")]);
		const result = await run(["render", basename(path)], dirname(path));
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain("relative hello");
	});
});

describe("render --format json", () => {
	it("prints one JSON document with exactly systemPrompt, messages and meta", async () => {
		const result = await run(["render", COLLAPSE_CHILD, "--format", "json"]);
		expect(result.code, result.stderr).toBe(0);
		const bundle = JSON.parse(result.stdout) as JsonBundle;
		expect(Object.keys(bundle).sort()).toEqual(["messages", "meta", "systemPrompt"]);
		expect(bundle.meta.templateVersion).toBe(NEWEST);
		expect(section(bundle.systemPrompt, "lineage")).toContain("node-01JEXAMPLE0000000000000000");
		expect(bundle.messages.map((m) => m.role)).toEqual(["collapse_context"]);
	});
});

describe("render --format llm", () => {
	for (const [name, file] of [
		["example 5", NO_COLLAPSE],
		["example 3", INTO_EXISTING],
	] as const) {
		it(`prints {systemPrompt, messages} with provider roles only (${name})`, async () => {
			const result = await run(["render", file, "--format", "llm"]);
			expect(result.code, result.stderr).toBe(0);
			const out = JSON.parse(result.stdout) as {
				systemPrompt: string;
				messages: { role: string }[];
			};
			expect(Object.keys(out).sort()).toEqual(["messages", "systemPrompt"]);
			expect(out.systemPrompt).toContain("<harness>");
			expect(out.messages.length).toBeGreaterThan(0);
			for (const message of out.messages) {
				expect(["user", "assistant", "toolResult"]).toContain(message.role);
			}
		});
	}

	it("turns the collapse summary of example 3 into a user message", async () => {
		const result = await run(["render", INTO_EXISTING, "--format", "llm"]);
		const out = JSON.parse(result.stdout) as { messages: { role: string }[] };
		expect(out.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
		expect(JSON.stringify(out.messages[2])).toContain("Old session covered the parser rewrite");
	});
});

describe("render options", () => {
	it("--tools FILE replaces the tool inventory, an unknown tool listed last under Other", async () => {
		const before = await renderJson(COLLAPSE_CHILD);
		const manifest = join(tempDir(), "tools.yaml");
		writeFileSync(manifest, "- read\n- name: bash\n  description: runs a command\n- zzz_unknown\n");
		const after = await renderJson(COLLAPSE_CHILD, "--tools", manifest);
		const tools = section(after.systemPrompt, "tools");
		expect(tools).not.toBe(section(before.systemPrompt, "tools"));
		expect(tools).toBe(
			expectedSection("tools", { toolGroups: groupsOf(["read", "bash", "zzz_unknown"]) }),
		);
		expect(categoryOf("zzz_unknown")).toBe(groupsOf(["read", "zzz_unknown"]).at(-1)?.name);
		expect(tools).not.toContain("session_graph");
	});

	it("--memory adds a <memory> block to the environment", async () => {
		const before = await renderJson(COLLAPSE_CHILD);
		expect(before.systemPrompt).not.toContain("<memory>");
		const after = await renderJson(COLLAPSE_CHILD, "--memory", "Use pnpm, not npm.");
		expect(section(after.systemPrompt, "environment")).toBe(
			expectedSection("environment", {
				environment: { cwd: "/home/user/project", memory: "Use pnpm, not npm." },
			}),
		);
	});

	it("--leaf ends the branch at the given entry", async () => {
		const whole = await renderJson(NO_COLLAPSE);
		expect(whole.meta.leafId).toBe("e4");
		expect(whole.messages).toHaveLength(4);
		const cut = await renderJson(NO_COLLAPSE, "--leaf", "e2");
		expect(cut.meta.leafId).toBe("e2");
		expect(cut.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("--leaf with an unknown id is bad input (exit 1)", async () => {
		const result = await run(["render", NO_COLLAPSE, "--leaf", "nope"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("nope");
		expect(result.stdout).toBe("");
	});
});

describe("bad input: exit 1 with the located error on stderr", () => {
	it("names the file and line of a non-JSON line", async () => {
		const path = writeLog(`${JSON.stringify(HEADER)}\n{broken\n`);
		const result = await run(["render", path, "--strict"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`${path}:2`);
		expect(result.stderr).toMatch(/not valid JSON/);
		expect(result.stdout).toBe("");
	});

	it("names a missing file", async () => {
		const path = join(dirname(writeLog([HEADER])), "does-not-exist.jsonl");
		const result = await run(["render", path]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(path);
		expect(result.stderr).not.toMatch(/internal error/);
		expect(result.stdout).toBe("");
	});
});

describe("wrong usage: exit 2 with usage on stderr", () => {
	const cases: [string, string[], RegExp][] = [
		["no command", [], /Usage:/],
		["an unknown command", ["frobnicate"], /unknown command "frobnicate"/],
		["render without a file", ["render"], /missing <session\.jsonl>/],
		[
			"render with two files",
			["render", COLLAPSE_CHILD, NO_COLLAPSE],
			/expected one <session\.jsonl>, got 2/,
		],
		["an unknown option", ["render", COLLAPSE_CHILD, "--bogus"], /bogus/],
		["a bad --format", ["render", COLLAPSE_CHILD, "--format", "xml"], /--format/],
		[
			"a misspelt option, with the one meant",
			["render", COLLAPSE_CHILD, "--formt", "json"],
			/unknown option --formt \(did you mean --format\?\)/,
		],
		[
			"an option without its value",
			["render", COLLAPSE_CHILD, "--format"],
			/--format needs a value$/m,
		],
		[
			"a value that looks like an option",
			["render", COLLAPSE_CHILD, "--leaf", "-x"],
			/--leaf needs a value; to give one that starts with "-", write --leaf=VALUE/,
		],
		["a value to a flag", ["render", COLLAPSE_CHILD, "--quiet=yes"], /--quiet takes no value/],
		[
			"--full with json",
			["render", COLLAPSE_CHILD, "--full", "--format", "json"],
			/--full shapes the text output/,
		],
		[
			"--strict with --lenient",
			["render", COLLAPSE_CHILD, "--strict", "--lenient"],
			/--strict and --lenient cannot go together/,
		],
	];
	for (const [name, argv, message] of cases) {
		it(`for ${name}`, async () => {
			const result = await run(argv);
			expect(result.code).toBe(2);
			expect(result.stderr).toMatch(message);
			expect(result.stderr).toContain("Usage:");
			expect(result.stdout).toBe("");
		});
	}

	it("shows the render synopsis for render's mistakes, not its whole help", async () => {
		const result = await run(["render", COLLAPSE_CHILD, "--format", "xml"]);
		expect(result.stderr).toContain("theway-context render <session.jsonl> [options]");
		expect(result.stderr).toContain("theway-context render --help");
		expect(result.stderr).not.toContain("--lenient");
	});
});

describe("--help", () => {
	it("prints the main usage on stdout", async () => {
		const result = await run(["--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Usage:");
		expect(result.stdout).toContain("render");
		expect(result.stdout).toContain("build");
		expect(result.stderr).toBe("");
	});

	it("prints the render usage on stdout", async () => {
		const result = await run(["render", "--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Usage: theway-context render");
		expect(result.stdout).toContain("--format");
		expect(result.stderr).toBe("");
	});

	it("prints the build usage on stdout", async () => {
		const result = await run(["build", "--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Usage: theway-context build");
		expect(result.stdout).toContain("--update");
		expect(result.stderr).toBe("");
	});
});

describe("render --lenient", () => {
	const damaged = () =>
		writeLog([
			HEADER,
			user("u1", null, "salvaged one"),
			"garbage line",
			assistant("a1", "u1", "salvaged two"),
		]);

	it("fails on a damaged log with --strict, and skips the line by default", async () => {
		expect((await run(["render", damaged(), "--strict"])).code).toBe(1);
		expect((await run(["render", damaged()])).code).toBe(0);
	});

	it("exits 0 and lists the skipped line on stderr", async () => {
		const path = damaged();
		const result = await run(["render", path, "--lenient"]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toMatch(
			new RegExp(
				`^theway-context: ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:1: warning: skipped`,
				"m",
			),
		);
		expect(result.stdout).toContain("salvaged one");
		expect(result.stdout).toContain("salvaged two");
	});

	it("keeps the skipped line in meta.diagnostics of the json output", async () => {
		const bundle = await renderJson(damaged(), "--lenient", "--quiet");
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({ severity: "warning", line: 3 }),
		);
	});

	it("--quiet leaves the warnings off stderr", async () => {
		const result = await run(["render", damaged(), "--lenient", "--quiet"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe("");
	});
});

describe("render: inputs that are not logs", () => {
	it("exits 1 with a located error for a directory", async () => {
		const result = await run(["render", EXAMPLES]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			`${EXAMPLES}: error: cannot read the session log (it is a directory)`,
		);
	});

	it("prints a message nested 100,000 deep as JSON and as text", async () => {
		const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
		const line = `{"type":"message","id":"d","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"f","arguments":{"a":${deep}}}],"extra":${deep}}}`;
		const path = writeLog(`${JSON.stringify(HEADER)}\n${line}\n`);
		const json = await run(["render", path, "--format", "json"]);
		expect(json.code, json.stderr).toBe(0);
		const parsed = JSON.parse(json.stdout) as { messages: { extra: unknown }[] };
		expect(jsonText(parsed.messages[0]?.extra)).toBe(deep); // JSON.stringify would overflow
		const text = await run(["render", path]);
		expect(text.code, text.stderr).toBe(0);
		expect(text.stdout).toContain("[tool call f]");
		expect(text.stdout).toContain("nested too deeply: cut");
	});

	it("escapes control characters in file names and in warnings", async () => {
		// A torn last line: a warning naming the file, in every reading mode.
		const path = writeLog(`${JSON.stringify(HEADER)}\n{"type":"mess`, "evil\u001b]0;x\u0007");
		const result = await run(["render", path]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("evil\\x1b]0;x\\x07");
		expect(hasRawControl(result.stderr)).toBe(false);
	});
});

describe("render: JSON bound for a terminal or a program", () => {
	const path = () => writeLog([HEADER, user("u1", null, "title \u009b2J \u202eevil")]);
	const json = async (pipeOrFile: boolean, ...more: string[]) => {
		let stdout = "";
		const code = await main(["render", path(), "--format", "llm", ...more], {
			stdout: (text) => {
				stdout += text;
			},
			stderr: () => {},
			cwd: ROOT,
			stdoutIsPipeOrFile: pipeOrFile,
		});
		expect(code).toBe(0);
		return stdout;
	};

	it("escapes C1 controls and bidirectional overrides unless stdout is a pipe or a file, the value unchanged", async () => {
		const [terminal, program] = [await json(false), await json(true)];
		expect(hasRawControl(terminal)).toBe(false);
		expect(terminal).toContain("\\u009b2J \\u202eevil");
		expect(program).toContain("\u009b2J \u202eevil");
		expect(JSON.parse(terminal)).toEqual(JSON.parse(program));
	});

	it("is indented for a terminal, one line for a program unless --pretty", async () => {
		const [terminal, program, pretty] = [
			await json(false),
			await json(true),
			await json(true, "--pretty"),
		];
		expect(terminal.trimEnd().split("\n").length).toBeGreaterThan(3);
		expect(program.endsWith("\n")).toBe(true);
		expect(program.trimEnd()).not.toContain("\n");
		expect(pretty.split("\n").length).toBe(terminal.split("\n").length);
		expect(JSON.parse(program)).toEqual(JSON.parse(terminal));
		expect(JSON.parse(pretty)).toEqual(JSON.parse(terminal));
	});
});

describe("errors on a terminal", () => {
	it("escape control characters in a located error's file name", async () => {
		const path = writeLog("not a header\n", "bad\u001b[2J\u009b");
		const result = await run(["render", path]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("bad\\x1b[2J\\x9b");
		expect(hasRawControl(result.stderr)).toBe(false);
	});
});

describe("--version and help <command>", () => {
	it("prints the package's name and version, and one command's help", async () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
		const version = await runCli(["--version"]);
		expect(version.code).toBe(0);
		expect(version.stdout).toBe(`${pkg.name} ${pkg.version}\n`);
		const help = await runCli(["help", "render"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toBe((await runCli(["render", "--help"])).stdout);
		expect((await runCli(["--help", "render"])).stdout).toBe(help.stdout);
		const unknown = await runCli(["help", "rendr"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(
			/^theway-context: error: unknown command "rendr" \(did you mean render\?\)/,
		);
		expect((await runCli(["help"])).code).toBe(0);
	});
});

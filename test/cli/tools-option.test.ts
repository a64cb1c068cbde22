/**
 * `--tools FILE` acts alike on every command that takes it: a tools
 * manifest is the session's tool list, so each command run with one over a
 * session gives exactly what it gives, without one, over the same session
 * listing the manifest's tools itself (its tools metadata), and not what it
 * gives over the session as it is. The sets are the spec's own, with a
 * second whose tools section differs, so that diff sees the tools too.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { HAVE_BUILT_CLI, startCli } from "../support/built-cli.js";
import { runCli } from "../support/cli.js";
import { agentSessionLines } from "../support/eval-session.js";
import { metadata } from "../support/session.js";
import { tempDir } from "../support/temp.js";

const SPEC = join(import.meta.dirname, "../spec/templates");
/** The manifest's tools, in the order the spec's categories list them (Shell, Files, Other). */
const LISTED = ["bash", "write", "zzz_custom"];
const MANIFEST = `- bash\n- write\n- zzz_custom\n`;

/** A session folder `root/<name>/s.jsonl` whose metadata lists `tools`. */
function sessionListing(root: string, name: string, tools: readonly string[]): string {
	const lines = agentSessionLines().map((line) =>
		(line as { id?: string }).id === "m0" ? metadata("m0", null, { tools }) : line,
	);
	const dir = join(root, name);
	mkdirSync(dir);
	writeFileSync(join(dir, "s.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	return dir;
}

/** The spec's sets, v2's tools section written its own way (each group's line). */
function templates(root: string): string {
	const dir = join(root, "templates");
	cpSync(SPEC, dir, { recursive: true });
	const file = join(dir, "v2", "tools.hbs");
	const text = readFileSync(file, "utf8");
	const edited = text.replace("{{name}}: ", "{{name}} — ");
	if (edited === text) throw new Error(`${file}: no group line to edit`);
	writeFileSync(file, edited);
	return dir;
}

describe("--tools FILE", () => {
	const root = tempDir("theway-tools-");
	const own = sessionListing(root, "own", ["read", "edit"]);
	const listed = sessionListing(root, "listed", LISTED);
	const manifest = join(root, "tools.yaml");
	writeFileSync(manifest, MANIFEST);
	const sets = templates(root);
	const version = ["--templates", sets, "--template-version", "v1"];
	/** Each command's run over `s.jsonl`, its output as JSON. */
	const runs: Record<string, string[]> = {
		render: ["render", "s.jsonl", "--format", "json", ...version],
		"render --format anthropic": ["render", "s.jsonl", "--format", "anthropic", ...version],
		inspect: ["inspect", "s.jsonl", "--format", "json", "--tokenizer", "chars", ...version],
		diff: [
			"diff",
			"s.jsonl",
			"--from",
			"v1",
			"--to",
			"v2",
			"--templates",
			sets,
			"--format",
			"json",
			"--tokenizer",
			"chars",
		],
		replay: ["replay", "s.jsonl", "--format", "json", "--tokenizer", "chars", ...version],
		eval: [
			"eval",
			"s.jsonl",
			"--model",
			"anthropic:claude-sonnet-4-5",
			"--calls",
			"all",
			"--dry-run",
			...version,
		],
	};
	/** The output, its folder's path made neutral (paths are the one thing that differs). */
	const output = async (argv: string[], dir: string) => {
		const run = await runCli(argv, dir);
		expect(run.code, `${argv.join(" ")}: ${run.stderr}`).toBe(0);
		return run.stdout.replaceAll(dir, "DIR");
	};

	it.each(Object.keys(runs))("is the session's tool list on %s", async (name) => {
		const argv = runs[name] as string[];
		const withManifest = await output([...argv, "--tools", manifest], own);
		expect(withManifest).toBe(await output(argv, listed));
		expect(withManifest).not.toBe(await output(argv, own));
	});

	it.skipIf(!HAVE_BUILT_CLI)("is the session's tool list on preview's views", async () => {
		const withManifest = await previewViews(
			root,
			["own"],
			["--templates", sets, "--tools", manifest],
		);
		const plain = await previewViews(root, ["own", "listed"], ["--templates", sets]);
		expect(withManifest.own).toBe(plain.listed);
		expect(withManifest.own).not.toBe(plain.own);
	});

	it("is one option, of the tools group, on every command that takes it", () => {
		const taking = COMMANDS.filter((c) => "tools" in c.spec.options).map((c) => c.spec.name);
		expect(taking).toEqual(
			expect.arrayContaining(["render", "inspect", "diff", "replay", "eval", "preview"]),
		);
		for (const { spec } of COMMANDS) {
			if ("tools" in spec.options) expect(spec.options.tools?.group, spec.name).toBe("tools");
		}
	});
});

/**
 * The view and the replay a preview of `root` serves for each session
 * `<name>/s.jsonl` of `names`, its name made neutral; the server stopped.
 */
async function previewViews(
	root: string,
	names: readonly string[],
	more: readonly string[],
): Promise<Record<string, string>> {
	const cli = startCli(["preview", ".", "--port", "0", ...more], root);
	try {
		const [url] = await cli.waitFor(/^http:\/\/127\.0\.0\.1:\d+\//);
		const out: Record<string, string> = {};
		for (const name of names) {
			const id = encodeURIComponent(`${name}/s.jsonl`);
			const answers = await Promise.all(
				["api/view", "api/replay"].map(async (path) =>
					(await fetch(`${url}${path}?session=${id}`)).text(),
				),
			);
			out[name] = answers.join("\n").replaceAll(`${name}/s.jsonl`, "S");
		}
		return out;
	} finally {
		cli.child.kill("SIGTERM");
		await cli.exited;
	}
}

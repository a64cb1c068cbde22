/**
 * The build step end to end, on a throwaway project: templates, lock,
 * fixtures, snapshots and a README. One test per class of error, asserting
 * the code or message, the file:line:column and the exit code.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { ContextError, ContextService } from "../../src/index.js";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { expectedSection } from "../support/expected.js";
import { section } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import {
	addLine,
	bumped,
	copyBundledSet,
	editLastLine,
	ROOT,
	versionOf,
	withExtraCategory,
	withVersion,
} from "../support/template-sets.js";
import { countingCompiler } from "../support/typecheck.js";

const EXAMPLE = join(ROOT, "test/fixtures/examples/2-collapse-child.jsonl");

/** A project folder with the bundled templates, one fixture and a README example. */
function project(): string {
	const dir = tempDir("theway-build-");
	copyBundledSet(join(dir, "templates/v1"), dir);
	mkdirSync(join(dir, "test/fixtures"), { recursive: true });
	cpSync(EXAMPLE, join(dir, "test/fixtures/child.jsonl"));
	writeFileSync(
		join(dir, "README.md"),
		"# demo\n\n<!-- rendered: test/fixtures/child.jsonl lineage -->\n```text\n```\n",
	);
	return dir;
}

async function build(dir: string, ...args: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await main(["build", "--templates", join(dir, "templates"), ...args], {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		cwd: dir,
	});
	return { code, stdout, stderr };
}

const edit = (file: string, from: string | RegExp, to: string) =>
	writeFileSync(file, readFileSync(file, "utf8").replace(from, to));
/** Rewrites a file with a function of its text. */
const rewrite = (file: string, change: (text: string) => string) =>
	writeFileSync(file, change(readFileSync(file, "utf8")));

/** A project whose lock, snapshots and README are up to date. */
async function ready(): Promise<string> {
	const dir = project();
	expect((await build(dir, "--update")).code).toBe(0);
	expect(await build(dir)).toMatchObject({ code: 0, stderr: "" });
	return dir;
}

describe("build", () => {
	it("records the lock, snapshots and README examples with --update, then passes", async () => {
		const dir = await ready();
		const lock = JSON.parse(readFileSync(join(dir, "templates/lock.json"), "utf8"));
		expect(lock.sets.v1.templates.harness.version).toBe(
			versionOf(readFileSync(join(dir, "templates/v1/harness.hbs"), "utf8")),
		);
		expect(lock.sets.v1.fingerprint).toMatch(/^[0-9a-f]{64}$/);
		expect(readFileSync(join(dir, "snapshots/child.txt"), "utf8")).toContain("<lineage>");
		expect(readFileSync(join(dir, "README.md"), "utf8")).toContain(
			"node-01JEXAMPLE0000000000000000",
		);
	});

	it("fails on a typo in a path, at file:line:column, with a frame and a suggestion", async () => {
		const dir = await ready();
		const file = join(dir, "templates/v1/environment.hbs");
		const lines = readFileSync(file, "utf8").split("\n");
		const line = lines.findIndex((l) => l.includes("{{environment.cwd}}")) + 1;
		const column = (lines[line - 1] as string).indexOf("{{environment.cwd}}") + 3;
		edit(file, "{{environment.cwd}}", "{{environment.cdw}}");
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toContain(
			`environment.hbs:${line}:${column}: error: "environment.cdw" does not exist`,
		);
		expect(stderr).toContain('(did you mean "cwd"?)');
		expect(stderr).toContain(`> ${line} | ${(lines[line - 1] as string).replace("cwd", "cdw")}`);
	});

	it("fails on a removed partial, naming the caller", async () => {
		const dir = await ready();
		rmSync(join(dir, "templates/v1/lineage.hbs"));
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toMatch(/lineage\.hbs: error: the template set v1 has no lineage\.hbs/);
		expect(stderr).toMatch(/system\.hbs:17:1: error: unknown partial "lineage"/);
	});

	it("fails on a text change without a version bump, naming the template", async () => {
		const dir = await ready();
		const harness = join(dir, "templates/v1/harness.hbs");
		const version = versionOf(readFileSync(harness, "utf8"));
		rewrite(harness, (t) => editLastLine(t, " (edited)"));
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toContain(
			`harness.hbs:3:1: error: harness changed but its version is still ${version}`,
		);
		expect((await build(dir, "--update")).code).toBe(1); // --update refuses too
	});

	it("wants the lock updated after a bump, and takes it with --update", async () => {
		const dir = await ready();
		const harness = join(dir, "templates/v1/harness.hbs");
		const version = versionOf(readFileSync(harness, "utf8"));
		rewrite(harness, (t) => withVersion(editLastLine(t, " (edited)"), bumped(version)));
		const stale = await build(dir);
		expect(stale.code).toBe(1);
		expect(stale.stderr).toContain(
			`lock is out of date: v1/harness changed (version ${version} → ${bumped(version)})`,
		);
		const updated = await build(dir, "--update");
		expect(updated.code).toBe(0);
		expect(updated.stdout).toContain("updated");
		expect((await build(dir)).code).toBe(0);
	});

	it("refuses a version that goes backwards", async () => {
		const dir = await ready();
		const tools = join(dir, "templates/v1/tools.hbs");
		const version = versionOf(readFileSync(tools, "utf8"));
		rewrite(tools, (t) => withVersion(t, "0.0.0"));
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toContain(
			`tools.hbs:3: error: tools's version went back from ${version} to 0.0.0`,
		);
	});

	it("wants tools bumped when categories.yaml changes", async () => {
		const dir = await ready();
		const categories = join(dir, "categories.yaml");
		writeFileSync(categories, withExtraCategory(readFileSync(categories, "utf8")));
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toMatch(
			/categories\.yaml:1: error: categories\.yaml changed.*bump the version of tools\.hbs/,
		);
	});

	it("shows a snapshot drift as a diff; --update rewrites it and prints the change", async () => {
		const dir = await ready();
		writeFileSync(
			join(dir, "test/fixtures/child.jsonl"),
			readFileSync(EXAMPLE, "utf8").replaceAll("session-123", "session-999"),
		);
		// The lineage line that names the source session, as the templates write it.
		const sourceLine = (id: string) =>
			expectedSection("lineage", { lineage: { nodeId: "n", sourceSessionId: id } })
				.split("\n")
				.find((line) => line.includes(id)) as string;
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toContain("rendering drifted from");
		expect(stderr).toContain(`\n-${sourceLine("session-123")}`);
		expect(stderr).toContain(`\n+${sourceLine("session-999")}`);
		const updated = await build(dir, "--update");
		expect(updated.stdout).toContain(`\n+${sourceLine("session-999")}`);
		expect(readFileSync(join(dir, "snapshots/child.txt"), "utf8")).toContain("session-999");
	});

	it("fails when a README example differs from the real rendering", async () => {
		const dir = await ready();
		edit(join(dir, "README.md"), "node-01JEXAMPLE0000000000000000", "made-up");
		const { code, stderr } = await build(dir);
		expect(code).toBe(1);
		expect(stderr).toMatch(/README\.md:5: error: this example differs from the real rendering/);
		expect(stderr).toMatch(/\n-.*made-up\n\+.*node-01JEXAMPLE0000000000000000/);
	});
});

describe("template sets side by side", () => {
	/** A line the v2 harness adds at its end. */
	const line = "(this line is v2's)";
	/** A templates folder with v1 and a v2 whose harness ends with one more line. */
	function twoSets(): string {
		const dir = project();
		cpSync(join(dir, "templates/v1"), join(dir, "templates/v2"), { recursive: true });
		rewrite(join(dir, "templates/v2/harness.hbs"), (t) =>
			withVersion(addLine(t, line), bumped(versionOf(t))),
		);
		return join(dir, "templates");
	}
	const pinned = (version: string | null) => {
		const text = readFileSync(EXAMPLE, "utf8");
		const pin = `{"type":"custom","customType":"session_metadata","id":"pin","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","data":{"templateVersion":${JSON.stringify(version)}}}\n`;
		const file = join(tempDir("theway-pin-"), "s.jsonl");
		writeFileSync(file, version === null ? text : text + pin);
		return file;
	};

	it("renders each session with the set it pinned; the newest otherwise", () => {
		const service = new ContextService({ templates: twoSets() });
		const v1 = service.loadSync(pinned("v1"));
		const v2 = service.loadSync(pinned("v2"));
		const newest = service.loadSync(pinned(null));
		expect(v1.meta.templateVersion).toBe("v1");
		expect(v1.systemPrompt).not.toContain(line);
		expect(v2.meta.templateVersion).toBe("v2");
		expect(newest.meta.templateVersion).toBe("v2");
		expect(v1.meta.templateFingerprint).not.toBe(v2.meta.templateFingerprint);
		const harness = section(v1.systemPrompt, "harness") as string;
		expect(v2.systemPrompt).toBe(v1.systemPrompt.replace(harness, `${harness}\n${line}`));
	});

	it("fails clearly on a pin to a set that does not exist", () => {
		const service = new ContextService({ templates: twoSets() });
		expect(() => service.loadSync(pinned("v9"))).toThrow(ContextError);
		expect(() => service.loadSync(pinned("v9"))).toThrow(
			/pins templateVersion "v9".*\(have: v1, v2\)/,
		);
	});
});

describe("the precompiled runtime", () => {
	it("runs no code from a templates folder it was not told to trust", async () => {
		const dir = await ready();
		const marker = join(dir, "ran");
		writeFileSync(
			join(dir, "templates/.compiled/v1.cjs"),
			`require("fs").writeFileSync(${JSON.stringify(marker)}, "x");`,
		);
		const compiler = countingCompiler();
		new ContextService({
			registry: new TemplateRegistry(join(dir, "templates"), { compiler: compiler.compile }),
		}).loadSync(EXAMPLE);
		expect(existsSync(marker)).toBe(false);
		expect(compiler.calls).toBe(1);
	});

	it("renders from the build's precompiled sets without compiling anything", async () => {
		const dir = await ready();
		const compiler = countingCompiler();
		const registry = new TemplateRegistry(join(dir, "templates"), {
			precompiled: true,
			compiler: compiler.compile,
		});
		const set = registry.get("v1");
		expect(compiler.calls).toBe(0);
		const bundle = new ContextService({ registry }).loadSync(EXAMPLE);
		expect(compiler.calls).toBe(0);
		expect(bundle.meta.templateFingerprint).toBe(set.fingerprint);
		expect(bundle.systemPrompt).toBe(new ContextService().loadSync(EXAMPLE).systemPrompt);
	});

	it("compiles from source when the precompiled set is stale", async () => {
		const dir = await ready();
		rewrite(join(dir, "templates/v1/harness.hbs"), (t) => addLine(t, "(edited)"));
		const compiler = countingCompiler();
		const registry = new TemplateRegistry(join(dir, "templates"), {
			precompiled: true,
			compiler: compiler.compile,
		});
		const bundle = new ContextService({ registry }).loadSync(EXAMPLE);
		expect(compiler.calls).toBe(1);
		expect(section(bundle.systemPrompt, "harness")?.split("\n").at(-1)).toBe("(edited)");
	});
});

describe("build: token budgets", () => {
	it("fails at the budget's line when a fixture's rendering goes over it, and passes under it", async () => {
		const dir = project();
		const tools = join(dir, "templates/v1/tools.hbs");
		edit(tools, /^(description: .*)$/m, "$1\nbudget: { tokens: 5 }");
		const line = readFileSync(tools, "utf8").split("\n").indexOf("budget: { tokens: 5 }") + 1;
		const column = "budget: { tokens: 5 }".indexOf("5") + 1; // located by the YAML parser
		const over = await build(dir, "--update");
		expect(over.code).toBe(1);
		expect(over.stderr).toContain(
			`theway-context: ${tools}:${line}:${column}: error: tools is over its budget of 5 tokens: section tools of ${join(dir, "test/fixtures/child.jsonl")} takes`,
		);
		expect(over.stderr).toContain(`> ${line} | budget: { tokens: 5 }`);
		edit(tools, "budget: { tokens: 5 }", "budget: { tokens: 5000 }");
		expect(await build(dir, "--update")).toMatchObject({ code: 0 });
		expect(await build(dir)).toMatchObject({ code: 0, stderr: "" });
	});
});

describe("build: fixtures no printer can choke on", () => {
	it("writes the snapshot of a fixture whose tool-call arguments nest 100,000 deep", async () => {
		const dir = project();
		const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
		const header = readFileSync(EXAMPLE, "utf8").split("\n")[0];
		const line = `{"type":"message","id":"d","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"f","arguments":{"a":${deep}}}]}}`;
		writeFileSync(join(dir, "test/fixtures/deep.jsonl"), `${header}\n${line}\n`);
		const written = await build(dir, "--update");
		expect(written.code, written.stderr).toBe(0);
		expect(readFileSync(join(dir, "snapshots/deep.txt"), "utf8")).toContain('"name": "f"');
		expect(await build(dir)).toMatchObject({ code: 0 });
	});

	it.skipIf(spawnSync("mkfifo", ["--version"]).status !== 0)(
		"refuses a --readme that is a FIFO at once, located",
		async () => {
			const dir = await ready();
			const fifo = join(dir, "README.fifo");
			spawnSync("mkfifo", [fifo]);
			const { code, stderr } = await build(dir, "--readme", fifo);
			expect(code).toBe(1);
			expect(stderr).toContain(
				`${fifo}: error: cannot read the README (it is a FIFO, not a regular file)`,
			);
		},
	);
});

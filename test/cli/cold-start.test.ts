/**
 * What a cold process loads. `--help` loads no command; `render` loads the
 * precompiled set with the Handlebars runtime, and nothing that compiles or
 * validates templates (no yaml, gray-matter, Handlebars compiler, template
 * schemas or type checker), unless a set must be compiled from its sources.
 * These run the built CLI (dist/), rebuilt first when a source is newer.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { fingerprintOf, type TemplateSetSource } from "../../src/templates/compile.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { precompiledPath } from "../../src/templates/precompiled.js";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { writePrecompiledSets } from "../../src/templates/write-precompiled.js";
import { ROOT } from "../support/serve.js";
import { tempDir } from "../support/temp.js";
import { NEWEST } from "../support/template-sets.js";
import { countingCompiler } from "../support/typecheck.js";

const BIN = join(ROOT, "dist/cli/bin.js");
/** The command line as installed: the bundle of scripts/bundle-cli.js. */
const BUNDLE = join(ROOT, "dist/cli/bin.cjs");
const TRACE = join(ROOT, "test/support/trace-loaded.mjs");
const SMALL = join(ROOT, "test/fixtures/examples/1-normal.jsonl");
/** A log with tool results over every shipped set's threshold. */
const VIRTUALIZED = join(ROOT, "test/fixtures/sessions/virtualized.jsonl");

/** The newest shipped set whose virtualization policy is in characters. */
function newestCharPolicySet(): string {
	const sets = [...readTemplateSets(join(ROOT, "templates")).entries()];
	const found = sets
		.filter(([, source]) =>
			/unit: chars/.test(source.templates.get("tool-result-stub")?.text ?? ""),
		)
		.at(-1)?.[0];
	if (found === undefined) throw new Error("no shipped set has a character policy");
	return found;
}

function newest(dir: string): number {
	let max = 0;
	for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
		max = Math.max(max, statSync(join(dir, f)).mtimeMs);
	}
	return max;
}

beforeAll(() => {
	let built = 0;
	try {
		built = statSync(BIN).mtimeMs;
	} catch {}
	if (built < newest(join(ROOT, "src"))) {
		execFileSync(
			process.execPath,
			[join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
			{ cwd: ROOT },
		);
	}
	let bundled = 0;
	try {
		bundled = statSync(BUNDLE).mtimeMs;
	} catch {}
	const rebundle = bundled < newest(join(ROOT, "src"));
	if (rebundle) {
		execFileSync(process.execPath, [join(ROOT, "scripts/bundle-cli.js")], { cwd: ROOT });
	}
	const precompiled = join(ROOT, "templates/.compiled");
	let compiled = 0;
	try {
		compiled = newest(precompiled);
	} catch {}
	const recompile = compiled < newest(join(ROOT, "templates"));
	if (recompile) {
		execFileSync(
			process.execPath,
			[
				"-e",
				"import('./dist/templates/write-precompiled.js').then((m) => m.writePrecompiledSets())",
			],
			{ cwd: ROOT },
		);
	}
	// As the build does: the code caches of what was just made.
	if (rebundle || recompile) {
		execFileSync(process.execPath, [join(ROOT, "scripts/code-cache.js")], { cwd: ROOT });
	}
}, 120_000);

/** Runs the built CLI; returns its exit code and every file it loaded, relative to the package. */
function loaded(
	args: string[],
	bin = BIN,
): { status: number | null; files: string[]; stderr: string } {
	const child = spawnSync(process.execPath, ["--import", TRACE, bin, ...args], {
		encoding: "utf8",
		cwd: ROOT,
	});
	const files = new Set<string>();
	const rest: string[] = [];
	for (const line of child.stderr.split("\n")) {
		if (line.startsWith("loaded file://")) files.add(relative(ROOT, fileURLToPath(line.slice(7))));
		else if (line !== "") rest.push(line);
	}
	return { status: child.status, files: [...files].sort(), stderr: rest.join("\n") };
}

const packages = (files: string[]) =>
	[
		...new Set(files.filter((f) => f.startsWith("node_modules/")).map((f) => f.split("/")[1])),
	].sort();

/** Each command's body, which only running that command loads. */
const BODIES = COMMANDS.map((c) => `dist/cli/${c.spec.name}.js`);

/** What only compiling a set from its sources needs. */
const COMPILER = [
	/^node_modules\/(yaml|gray-matter|js-yaml|esprima)\//,
	/^node_modules\/handlebars\/(?!dist\/handlebars\.runtime\.js$)/,
	/^dist\/templates\/(compile|front-matter|typecheck|yaml|skeleton|zod-types)\.js$/,
	/^dist\/view\/(schema|categories)\.js$/,
	/^dist\/check\//,
];

/**
 * What only compiling a set needs, less the YAML reader and the schemas'
 * types, which replay keeps for a table of the user's.
 */
const SET_COMPILER = [
	/^node_modules\/(gray-matter|js-yaml|esprima)\//,
	/^node_modules\/handlebars\/(?!dist\/handlebars\.runtime\.js$)/,
	/^dist\/templates\/(compile|front-matter|typecheck|skeleton)\.js$/,
	/^dist\/check\//,
];

describe("a cold process", () => {
	it("--help loads no command and no package: the declarations and the option layer", () => {
		const { status, files } = loaded(["--help"]);
		expect(status).toBe(0);
		expect(files.filter((f) => BODIES.includes(f))).toEqual([]);
		expect(files).toContain("dist/cli/commands/render.js");
		expect(files.filter((f) => !f.startsWith("dist/cli/"))).toEqual([
			"dist/errors.js",
			"dist/eval/settings.js",
			"dist/import/accounting.js",
			"dist/log/buffer-pool.js",
			"dist/log/read.js",
			"dist/serve/lines.js",
			"dist/text/nearest.js",
			"dist/text/tokenizer-names.js",
		]);
		expect(packages(files)).toEqual([]);
	});

	it("a command's --help and its usage errors load no command either", () => {
		for (const args of [
			["diff", "--help"],
			["render", "--formt", "x"],
		]) {
			const { files } = loaded(args);
			expect(
				files.filter((f) => BODIES.includes(f)),
				args.join(" "),
			).toEqual([]);
			expect(packages(files)).toEqual([]);
		}
	});

	it("render loads the precompiled set with the Handlebars runtime, and no compiler", () => {
		const { status, files, stderr } = loaded(["render", SMALL, "--format", "llm"]);
		expect(stderr).toBe("");
		expect(status).toBe(0);
		expect(files).toContain(`templates/.compiled/${NEWEST}.cjs`);
		expect(files).toContain("node_modules/handlebars/dist/handlebars.runtime.js");
		expect(files.filter((f) => COMPILER.some((re) => re.test(f)))).toEqual([]);
		expect(files.filter((f) => BODIES.includes(f))).toEqual(["dist/cli/render.js"]);
	});

	it("replay of the precompiled sets loads no compiler, bundled or not", () => {
		for (const bin of [BIN, BUNDLE]) {
			const { status, files, stderr } = loaded(["replay", SMALL, "--format", "json"], bin);
			expect(stderr).toBe("");
			expect(status).toBe(0);
			expect(files).toContain(`templates/.compiled/${NEWEST}.cjs`);
			expect(files).toContain("node_modules/handlebars/dist/handlebars.runtime.js");
			expect(files.filter((f) => SET_COMPILER.some((re) => re.test(f)))).toEqual([]);
			// Its tables are JSON: no YAML reader either.
			expect(packages(files)).not.toContain("yaml");
		}
	});

	it("bundled, replay of a folder of sources loads the compiler", () => {
		const templates = tempDir("theway-sources-");
		cpSync(join(ROOT, "templates/v1"), join(templates, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(templates, "categories.yaml"));
		const { status, files } = loaded(
			["replay", SMALL, "--format", "json", "--templates", templates],
			BUNDLE,
		);
		expect(status).toBe(0);
		expect(packages(files)).toEqual(expect.arrayContaining(["gray-matter", "handlebars"]));
		expect(files).toContain("node_modules/handlebars/lib/index.js");
	});

	it("render of a log with results over the threshold loads no tokenizer under a character policy", () => {
		const chars = newestCharPolicySet();
		const { status, files, stderr } = loaded(
			["render", VIRTUALIZED, "--format", "llm", "--template-version", chars],
			BUNDLE,
		);
		expect(stderr).toBe("");
		expect(status).toBe(0);
		expect(packages(files)).toEqual(["handlebars"]);
		// The same log under a token policy does load it: the test can tell.
		const tokens = [...readTemplateSets(join(ROOT, "templates")).entries()].find(([, source]) =>
			/unit: tokens/.test(source.templates.get("tool-result-stub")?.text ?? ""),
		)?.[0];
		if (tokens !== undefined) {
			const counted = loaded(
				["render", VIRTUALIZED, "--format", "llm", "--template-version", tokens],
				BUNDLE,
			);
			expect(packages(counted.files)).toContain("gpt-tokenizer");
		}
	});

	it("bundled, --help loads the entry and the error class alone", () => {
		const { status, files } = loaded(["--help"], BUNDLE);
		expect(status).toBe(0);
		expect(files).toEqual(["dist/cli/bin.cjs", "dist/cli/errors.cjs"]);
	});

	it("bundled, render loads its own bundle, the one precompiled set it renders with and the Handlebars runtime", () => {
		const versions = [...readTemplateSets(join(ROOT, "templates")).keys()];
		expect(versions.length).toBeGreaterThan(1);
		for (const version of versions) {
			const asked = version === NEWEST ? [] : ["--template-version", version];
			const { status, files, stderr } = loaded(
				["render", SMALL, "--format", "llm", ...asked],
				BUNDLE,
			);
			expect(stderr).toBe("");
			expect(status).toBe(0);
			expect(files).toEqual([
				"dist/cli/bin.cjs",
				"dist/cli/errors.cjs",
				"dist/cli/render.cjs",
				"node_modules/handlebars/dist/handlebars.runtime.js",
				`templates/.compiled/${version}.cjs`,
			]);
		}
	});

	it("bundled, render with a folder of sources loads the compiler's packages", () => {
		const templates = tempDir("theway-sources-");
		cpSync(join(ROOT, "templates/v1"), join(templates, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(templates, "categories.yaml"));
		const { status, files } = loaded(["render", SMALL, "--templates", templates], BUNDLE);
		expect(status).toBe(0);
		expect(packages(files)).toEqual(expect.arrayContaining(["gray-matter", "yaml"]));
		// zod is bundled on its own, without its locales.
		expect(files).toContain("dist/cli/zod.cjs");
		expect(files.filter((f) => f.startsWith("node_modules/zod/"))).toEqual([]);
	});

	it("render with a folder of sources compiles them in memory", () => {
		const templates = tempDir("theway-sources-");
		cpSync(join(ROOT, "templates/v1"), join(templates, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(templates, "categories.yaml"));
		const { status, files } = loaded(["render", SMALL, "--templates", templates]);
		expect(status).toBe(0);
		expect(files).toContain("dist/templates/compile.js");
		expect(readdirSync(templates).sort()).toEqual(["categories.yaml", "v1"]);
	});
});

describe("precompiled sets at run time", () => {
	function folder(): { root: string; module: string } {
		const root = tempDir("theway-precompiled-");
		cpSync(join(ROOT, "templates/v1"), join(root, "v1"), { recursive: true });
		cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
		writePrecompiledSets(root);
		return { root, module: precompiledPath(root, "v1") };
	}

	it("the module and code cache of a set no longer there are removed when the sets are precompiled", () => {
		const { root } = folder();
		const compiled = join(root, ".compiled");
		writeFileSync(join(compiled, "v7.cjs"), "module.exports = {};\n");
		writeFileSync(join(compiled, "v7.cjs.cache"), "");
		writeFileSync(join(compiled, "v1.cjs.cache"), "");
		writePrecompiledSets(root);
		expect(readdirSync(compiled).sort()).toEqual(["v1.cjs", "v1.cjs.cache"]);
	});

	it("a fresh one is loaded, nothing compiled", async () => {
		const { root } = folder();
		const compiler = countingCompiler();
		const registry = new TemplateRegistry(root, { precompiled: true, compiler: compiler.compile });
		await registry.ready();
		const set = registry.get("v1");
		expect(compiler.calls).toBe(0);
		expect(set.fingerprint).toBe(
			fingerprintOf(readTemplateSets(root).get("v1") as TemplateSetSource),
		);
	});

	it("a stale one is compiled in memory from the sources, and never rewritten", async () => {
		const { root, module } = folder();
		const file = join(root, "v1/environment.hbs");
		writeFileSync(file, `${readFileSync(file, "utf8")}\nStale no more.\n`);
		const text = readFileSync(module, "utf8");
		const compiler = countingCompiler();
		const registry = new TemplateRegistry(root, { precompiled: true, compiler: compiler.compile });
		await registry.ready();
		const set = registry.get("v1");
		expect(compiler.calls).toBe(1);
		expect(set.fingerprint).toBe(
			fingerprintOf(readTemplateSets(root).get("v1") as TemplateSetSource),
		);
		expect(readFileSync(module, "utf8")).toBe(text);
		expect(readdirSync(join(root, ".compiled"))).toEqual(["v1.cjs"]);
	});

	it("one that records no texts (an earlier build) is checked by its fingerprint", async () => {
		const { root, module } = folder();
		const lines = readFileSync(module, "utf8").split("\n");
		expect(lines.some((l) => l.startsWith("exports.sources = "))).toBe(true);
		writeFileSync(module, lines.filter((l) => !l.startsWith("exports.sources = ")).join("\n"));
		const compiler = countingCompiler();
		const fresh = new TemplateRegistry(root, { precompiled: true, compiler: compiler.compile });
		await fresh.ready();
		expect(fresh.get("v1").version).toBe("v1");
		expect(compiler.calls).toBe(0);
		const file = join(root, "v1/environment.hbs");
		writeFileSync(file, `${readFileSync(file, "utf8")}\nStale no more.\n`);
		const stale = new TemplateRegistry(root, { precompiled: true, compiler: compiler.compile });
		await stale.ready();
		expect(stale.get("v1").fingerprint).toBe(
			fingerprintOf(readTemplateSets(root).get("v1") as TemplateSetSource),
		);
		expect(compiler.calls).toBe(1);
	});

	it("a missing one is compiled in memory, and none is written", async () => {
		const { root, module } = folder();
		rmSync(module);
		const registry = new TemplateRegistry(root, { precompiled: true });
		await registry.ready();
		expect(registry.get("v1").version).toBe("v1");
		expect(readdirSync(join(root, ".compiled"))).toEqual([]);
	});
});

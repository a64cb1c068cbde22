/**
 * Makes V8's code cache of the command line's CommonJS files (see
 * src/cli/code-cache.ts), after `npm run build`: runs each command once in
 * a process that records what V8 compiles, and writes `<file>.cache` beside
 * each file. `render` runs on a fixture with every kind of message, `import` and `replay` on a few
 * small Claude Code and Codex files (and a pi log): what such a run compiles (the functions it
 * calls, not only the top level) is cached whole, the price database's too. The other commands'
 * bundles are loaded, not run (their top level).
 * Usage: node scripts/code-cache.js
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "dist/cli/bin.cjs");
const RECORD = join(ROOT, "scripts/code-cache-record.js");
const EXAMPLE = join(ROOT, "test/fixtures/sessions/virtualized.jsonl");
const FOLDERS = [join(ROOT, "dist/cli"), join(ROOT, "templates/.compiled")];
/** The shipped sets, oldest first: `render` loads only the one it renders with. */
const SETS = readdirSync(join(ROOT, "templates/.compiled"))
	.filter((name) => /^v\d+\.cjs$/.test(name))
	.map((name) => name.slice(0, -".cjs".length))
	.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
/** Node's arguments that load a command's bundle as the entry would (the cache armed), and run nothing. */
function loadOnly(command) {
	const module = pathToFileURL(join(ROOT, "dist/cli/code-cache.js")).href;
	const bundle = join(ROOT, `dist/cli/${command}.cjs`);
	return [
		"--input-type=module",
		"-e",
		`import { createRequire } from "node:module";
		import { codeCacheOptions, useCodeCache } from ${JSON.stringify(module)};
		const require = createRequire(import.meta.url);
		require(${JSON.stringify(join(ROOT, "dist/cli/errors.cjs"))}); // as the entry loads it: before the cache
		useCodeCache(codeCacheOptions(${JSON.stringify(join(ROOT, "dist/cli/"))}, ${JSON.stringify(ROOT)}));
		require(${JSON.stringify(bundle)});`,
	];
}

/** Small files of each source `import` and `replay` read. */
const FOREIGN = ["cc-parallel-calls", "cc-sidechain", "codex-tools", "codex-usage"].map((name) =>
	join(ROOT, `test/fixtures/import/${name}.jsonl`),
);
/** Where the recording `import` writes (removed after). */
const OUT = join(tmpdir(), `theway-code-cache-${process.pid}`);

/**
 * The commands only loaded first, then those run: a file two runs compile
 * keeps the cache of the last (a bundle loaded by another's top level, as
 * preview loads replay's, is recorded by its own run after). A render with
 * each older set, then with the default one last: the files every command
 * uses (zod) keep the cache of the run that used them most.
 */
const RUNS = [
	...["build", "serve", "inspect", "diff", "preview"].map(loadOnly),
	[BIN, "import", "--out", `${OUT}/`, ...FOREIGN],
	[BIN, "replay", "--format", "json", ...FOREIGN, EXAMPLE],
	...SETS.slice(0, -1).map((set) => [BIN, "render", EXAMPLE, "--format", "llm", "--template-version", set]),
	[BIN, "render", EXAMPLE, "--format", "llm"],
];

export function writeCodeCaches() {
	for (const folder of FOLDERS) {
		for (const name of readdirSync(folder)) {
			if (name.endsWith(".cache") || name.endsWith(".cache.tmp")) rmSync(join(folder, name));
		}
	}
	const written = new Set();
	try {
		record(written);
	} finally {
		rmSync(OUT, { recursive: true, force: true });
	}
	return [...written];
}

/** Runs each of {@link RUNS} under the recorder; the caches written go to `written`. */
function record(written) {
	for (const args of RUNS) {
		const child = spawnSync(process.execPath, ["--import", pathToFileURL(RECORD).href, ...args], {
			cwd: ROOT,
			encoding: "utf8",
			maxBuffer: 64 * 1024 * 1024,
		});
		if (child.status !== 0) {
			throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
		}
		for (const line of child.stderr.split("\n")) {
			if (line.startsWith("code cache ")) written.add(line.slice("code cache ".length));
		}
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	for (const file of writeCodeCaches()) console.log("code cache", file);
}

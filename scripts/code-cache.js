/**
 * Makes V8's code cache of the command line's CommonJS files (see
 * src/cli/code-cache.ts), after `npm run build`: runs each command once in
 * a process that records what V8 compiles, and writes `<file>.cache` beside
 * each file. `render` runs on a fixture with every kind of message (what a render compiles is
 * cached whole); the other commands' bundles are loaded, not run (their top level).
 * Usage: node scripts/code-cache.js
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
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

/**
 * A render with each older set, then with the default one last: a file two
 * runs compile keeps the cache of the run that used it most.
 */
const RUNS = [
	...["build", "serve", "inspect", "diff", "preview", "replay", "import"].map(loadOnly),
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
	return [...written];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	for (const file of writeCodeCaches()) console.log("code cache", file);
}

/**
 * Bundles the command line's runtime path (`npm run build`, after tsc): the
 * compiled modules of `dist/` that a command loads, joined into CommonJS
 * files beside them, so that a cold process reads and compiles a few files
 * instead of ~50 ES modules (the ES module loader's per-module cost was
 * most of what a cold `render` spent above Node's own start).
 *
 *  - `dist/cli/bin.cjs`: the entry (`bin` of package.json): argument
 *    dispatch and the error class, nothing else;
 *  - `dist/cli/<command>.cjs`: one per command, loaded by the entry when
 *    that command runs;
 *  - `dist/cli/errors.cjs`: the error class, shared by all of them (an error
 *    thrown by a command must be an instance of the class the entry checks);
 *  - `dist/cli/zod.cjs`: zod, from its ES modules, shared by all of them
 *    (one copy in a process, as from node_modules), without its locales:
 *    every entry point of zod exports them all as `locales` (some 80 files
 *    loaded, compiled and run on every start), the commands use none of
 *    them (English, which zod sets by default, is imported on its own), and
 *    the file is one more the code cache covers (src/cli/code-cache.ts).
 *    `z.locales` is empty in the command line.
 *  - `dist/cli/genai-prices.cjs`: the price database `@pydantic/genai-prices`
 *    with its data read as it is looked at (scripts/lazy-prices.js).
 *
 * Other packages stay outside (required from node_modules, each only when a
 * module that needs it first runs), and so does the library's ES module
 * build (`dist/index.js`), which this leaves as tsc wrote it. Every output
 * sits in `dist/cli/`, two levels under the package, as `dist/cli/*.js`
 * does: paths the modules derive from their own location still hold.
 * Usage: node scripts/bundle-cli.js
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { writeLazyPrices } from "./lazy-prices.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist/cli");
const ERRORS = join(ROOT, "dist/errors.js");
/** The commands `main.ts` imports lazily, each bundled on its own. */
const COMMANDS = [
	"render",
	"build",
	"serve",
	"inspect",
	"preview",
	"diff",
	"replay",
	"eval",
	"lsp",
	"import",
	"new-set",
];
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const PACKAGES = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

/** The price database's package: the bundles require `dist/cli/genai-prices.cjs` instead. */
const PRICES = "@pydantic/genai-prices";

/** zod's ES module entry, bundled as `dist/cli/zod.cjs`. */
const ZOD = join(ROOT, "node_modules/zod/index.js");

/** The .cjs file that stands for a bundled module of dist/, by its path. */
const OUTPUTS = new Map([
	[ERRORS, "./errors.cjs"],
	...COMMANDS.map((c) => [join(CLI, `${c}.js`), `./${c}.cjs`]),
]);

/**
 * Imports of another output's module become requires of that output; every
 * package stays a require of the package.
 */
const split = {
	name: "split",
	setup(b) {
		b.onResolve({ filter: /.*/ }, (args) => {
			if (args.kind === "entry-point") return undefined;
			if (args.path === "zod") return { path: "./zod.cjs", external: true };
			// The price database with its data read as it is looked at (scripts/lazy-prices.js).
			if (args.path === PRICES) return { path: "./genai-prices.cjs", external: true };
			if (args.path === "../locales/index.js" && isZodFile(args.importer)) {
				return { path: "locales", namespace: "no-locales" };
			}
			if (PACKAGES.some((p) => args.path === p || args.path.startsWith(`${p}/`))) {
				return { path: args.path, external: true };
			}
			if (!args.path.startsWith(".")) return undefined;
			const target = resolve(args.resolveDir, args.path);
			const output = OUTPUTS.get(target);
			if (output === undefined || target === args.importer) return undefined;
			return { path: output, external: true };
		});
		b.onLoad({ filter: /.*/, namespace: "no-locales" }, () => ({ contents: "export {};" }));
	},
};

/** Whether `file` is one of zod's own modules. */
function isZodFile(file) {
	return file.startsWith(join(ROOT, "node_modules/zod/"));
}

/** import.meta.url, which CommonJS lacks, from the bundle's own file name. */
const META_URL = "__bundle_import_meta_url";

export async function bundleCli() {
	const entries = [
		{ in: join(CLI, "bin.js"), out: "bin" },
		{ in: ERRORS, out: "errors" },
		...COMMANDS.map((c) => ({ in: join(CLI, `${c}.js`), out: c })),
	];
	const common = {
		outdir: CLI,
		outExtension: { ".js": ".cjs" },
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "node20",
		plugins: [split],
		logLevel: "warning",
		legalComments: "none",
	};
	await build({
		...common,
		entryPoints: entries,
		// Dynamic import() of another output becomes require(): no ES module loader at all.
		supported: { "dynamic-import": false },
		define: { "import.meta.url": META_URL },
		banner: { js: `"use strict";\nconst ${META_URL} = require("node:url").pathToFileURL(__filename).href;` },
	});
	// Without comments: one of zod's names `import()`, and a file that may call it is never cached.
	await build({ ...common, entryPoints: [{ in: ZOD, out: "zod" }], minifyWhitespace: true });
	const prices = writeLazyPrices();
	return [...[...entries, { out: "zod" }].map((e) => join(CLI, `${e.out}.cjs`)), prices];
}

if (process.argv[1] !== undefined && basename(process.argv[1]) === "bundle-cli.js") {
	for (const file of await bundleCli()) console.log("bundled", file);
}

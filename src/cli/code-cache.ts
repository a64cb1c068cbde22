/**
 * V8's code cache for the command line's CommonJS files: the command
 * bundles (`dist/cli/*.cjs`), the precompiled template sets
 * (`templates/.compiled/*.cjs`) and the Handlebars runtime they use. Compiling them is most of what a cold
 * `render` spends above Node's own start; with the code V8 compiled on an
 * earlier run, a process skips parsing and the first compilation of every
 * function that run used.
 *
 * The caches are made when the package is built (`scripts/code-cache.js`
 * runs each command once and writes `<file>.cache` beside each file, and
 * the Handlebars runtime's cache in `dist/cli/`), so
 * they ship with the package and nothing is written at run time. A cache
 * holds the source it was made from: a file changed since is
 * compiled as usual, and so is any file when V8 rejects the cache (another
 * Node version). Node 22's `module.enableCompileCache` does the same with a
 * cache written at run time; Node 20 has none.
 */
import { readFileSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join, resolve, sep } from "node:path";
import { Script } from "node:vm";

/**
 * A cache holds the source it was made from (its byte length, then its
 * bytes), compared as it is: no hash module to load (loading one costs more
 * than the comparison), and V8 alone checks only the length.
 */
const LENGTH_BYTES = 4;

type Compile = (this: CjsModule, content: string, filename: string, ...rest: unknown[]) => unknown;
interface CjsModule {
	exports: unknown;
}
const proto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;

/** Which files are cached, and where. */
export interface CodeCacheOptions {
	/** Folders whose CommonJS (`.cjs`) files have their cache beside them (`<file>.cache`). */
	roots: readonly string[];
	/**
	 * Package files (a path under `node_modules/`, as `handlebars/dist/x.js`),
	 * cached in `dir` (a package's folder is not this package's to write).
	 */
	packages?: { files: readonly string[]; dir: string };
	/** Compile every such file so that {@link writeCodeCaches} can save what V8 made of it. */
	record?: boolean;
}

/** What the command line caches: its bundles in `cli`, the sets under `root`, the Handlebars runtime. */
export function codeCacheOptions(cli: string, root: string, record = false): CodeCacheOptions {
	return {
		roots: [cli, join(root, "templates", ".compiled", sep)],
		packages: { files: ["handlebars/dist/handlebars.runtime.js"], dir: cli },
		record,
	};
}

let installed: { record: boolean; scripts: [Script, string, string][] } | undefined;

/**
 * From now on, a file {@link CodeCacheOptions} names is compiled with its
 * cache when there is a fresh one. Once per process; a later call changes
 * nothing.
 */
export function useCodeCache(options: CodeCacheOptions): void {
	if (installed !== undefined) return;
	const record = options.record === true;
	const state = { record, scripts: [] as [Script, string, string][] };
	installed = state;
	const original = proto._compile;
	const entry = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
	const packages = (options.packages?.files ?? []).map((file) => ({
		suffix: `${sep}node_modules${sep}${file.split("/").join(sep)}`,
		cache: join(options.packages?.dir ?? "", `${file.replace(/[/\\]/g, "__")}.cache`),
	}));
	/** Where the cache of `filename` is kept, if it has one. */
	const cachePath = (filename: string): string | undefined => {
		// The entry is compiled before any hook exists: no cache of it would ever be read.
		if (filename === entry) return undefined;
		if (filename.endsWith(".cjs") && options.roots.some((root) => filename.startsWith(root)))
			return `${filename}.cache`;
		return packages.find((p) => filename.endsWith(p.suffix))?.cache;
	};
	proto._compile = function (this: CjsModule, content: string, filename: string, ...rest) {
		// Anything else goes to Node as it came (later Nodes pass more than these two).
		const path = typeof content === "string" ? cachePath(filename) : undefined;
		if (path === undefined) return original.call(this, content, filename, ...rest);
		const cached = record ? undefined : cacheFor(path, content);
		if (cached === undefined && !record) return original.call(this, content, filename, ...rest);
		const script = new Script(Module.wrap(withoutHashbang(content)), {
			filename,
			...(cached === undefined ? {} : { cachedData: cached }),
		});
		if (record) state.scripts.push([script, path, content]);
		const wrapper = script.runInThisContext({ displayErrors: true }) as (
			...args: unknown[]
		) => unknown;
		const require = createRequire(filename);
		return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
	};
}

/** Writes the cache of every file compiled since {@link useCodeCache} with `record`. */
export function writeCodeCaches(): string[] {
	if (installed === undefined || !installed.record) return [];
	return installed.scripts.map(([script, path, content]) => {
		const source = Buffer.from(content, "utf8");
		const length = Buffer.alloc(LENGTH_BYTES);
		length.writeUInt32BE(source.length);
		writeFileSync(path, Buffer.concat([length, source, script.createCachedData()]));
		return path;
	});
}

/** V8's data in the cache at `path`, if it was made from this very source. */
function cacheFor(path: string, content: string): Buffer | undefined {
	let data: Buffer;
	try {
		data = readFileSync(path);
	} catch {
		return undefined;
	}
	if (data.length <= LENGTH_BYTES) return undefined;
	const end = LENGTH_BYTES + data.readUInt32BE(0);
	if (data.length <= end || data.toString("utf8", LENGTH_BYTES, end) !== content) return undefined;
	return data.subarray(end);
}

/** A `#!` line kept as a comment of the same length (it is valid only at a file's very start). */
function withoutHashbang(content: string): string {
	return content.startsWith("#!") ? `//${content.slice(2)}` : content;
}

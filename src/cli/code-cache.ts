/**
 * V8's code cache for the command line's own CommonJS files: the command
 * bundles (`dist/cli/*.cjs`) and the precompiled template sets
 * (`templates/.compiled/*.cjs`). Compiling them is most of what a cold
 * `render` spends above Node's own start; with the code V8 compiled on an
 * earlier run, a process skips parsing and the first compilation of every
 * function that run used.
 *
 * The caches are made when the package is built (`scripts/code-cache.js`
 * runs each command once and writes `<file>.cache` beside each file), so
 * they ship with the package and nothing is written at run time. A cache
 * holds the source it was made from: a file changed since is
 * compiled as usual, and so is any file when V8 rejects the cache (another
 * Node version). Node 22's `module.enableCompileCache` does the same with a
 * cache written at run time; Node 20 has none.
 */
import { readFileSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Script } from "node:vm";

/**
 * A cache holds the source it was made from (its byte length, then its
 * bytes), compared as it is: no hash module to load (loading one costs more
 * than the comparison), and V8 alone checks only the length.
 */
const LENGTH_BYTES = 4;

type Compile = (this: CjsModule, content: string, filename: string) => unknown;
interface CjsModule {
	exports: unknown;
}
const proto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;

let installed: { record: boolean; scripts: [Script, string, string][] } | undefined;

/**
 * From now on, a CommonJS file under one of `roots` is compiled with the
 * cache beside it when there is a fresh one. With `record`, every such file
 * is compiled so that {@link writeCodeCaches} can save what V8 made of it.
 * Once per process; a later call changes nothing.
 */
export function useCodeCache(roots: readonly string[], record = false): void {
	if (installed !== undefined) return;
	const state = { record, scripts: [] as [Script, string, string][] };
	installed = state;
	const original = proto._compile;
	const entry = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
	proto._compile = function (this: CjsModule, content: string, filename: string) {
		// The entry is compiled before any hook exists: no cache of it would ever be read.
		const ours = filename.endsWith(".cjs") && filename !== entry;
		if (!ours || !roots.some((root) => filename.startsWith(root)))
			return original.call(this, content, filename);
		const cached = record ? undefined : cacheFor(filename, content);
		if (cached === undefined && !record) return original.call(this, content, filename);
		const script = new Script(Module.wrap(withoutHashbang(content)), {
			filename,
			...(cached === undefined ? {} : { cachedData: cached }),
		});
		if (record) state.scripts.push([script, filename, content]);
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
	return installed.scripts.map(([script, filename, content]) => {
		const source = Buffer.from(content, "utf8");
		const length = Buffer.alloc(LENGTH_BYTES);
		length.writeUInt32BE(source.length);
		writeFileSync(`${filename}.cache`, Buffer.concat([length, source, script.createCachedData()]));
		return `${filename}.cache`;
	});
}

/** V8's data for `filename`, if its cache was made from this very source. */
function cacheFor(filename: string, content: string): Buffer | undefined {
	let data: Buffer;
	try {
		data = readFileSync(`${filename}.cache`);
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

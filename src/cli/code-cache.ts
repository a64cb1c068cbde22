/**
 * V8's code cache for the command line's CommonJS files: the command
 * bundles (`dist/cli/*.cjs`, zod's and the price database's among them),
 * the precompiled template sets (`templates/.compiled/*.cjs`) and the
 * Handlebars runtime they use. Compiling them is most of what a cold
 * command spends above Node's own start; with the code V8 compiled on an
 * earlier run, a process skips parsing and the first compilation of every
 * function that run used. V8 takes a cache only under the flags it was made
 * with: the command line sets its own first (./heap.ts), and so does the
 * build's recorder.
 *
 * The caches are made when the package is built (`scripts/code-cache.js`
 * runs each command once and writes `<file>.cache` beside each file, and
 * the packages' in `dist/cli/`), so they ship with the package
 * and nothing is written at run time. A cache is used only by the V8 that
 * made it, for exactly the source it was made from, and only if its
 * checksum holds (Node 20.15 and later, which have `zlib.crc32`); anything
 * else is compiled as usual. A cached module is run as Node runs any other
 * (its `require`, lines and columns); a file that may call `import()` is
 * never cached (Node 20 gives such a call, in a script compiled from a
 * cache, no loader). Node 22's `module.enableCompileCache` does the same
 * with a cache written at run time; Node 20 has none.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join, resolve, sep } from "node:path";
import { Script } from "node:vm";
import * as zlib from "node:zlib";

/**
 * A cache file: the V8 version that made it and the source it was made from
 * (each as its byte length, then its bytes), the CRC-32 of V8's data, then
 * the data. The source is compared whole, as bytes (V8 alone checks only its
 * length); the checksum, because V8 in a release build runs damaged data as
 * it finds it (a crash, or worse). A cache of another V8 is passed over
 * before anything is compiled.
 */
const LENGTH_BYTES = 4;

/** `zlib.crc32`: Node 20.15 and later (before, no cache is used). */
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

type Compile = (this: CjsModule, content: string, filename: string, ...rest: unknown[]) => unknown;
interface CjsModule {
	exports: unknown;
	require(id: string): unknown;
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

/** The package files the command line caches: the Handlebars runtime. */
export const CACHED_PACKAGE_FILES: readonly string[] = ["handlebars/dist/handlebars.runtime.js"];

/** What the command line caches: its bundles in `cli`, the sets under `root`, {@link CACHED_PACKAGE_FILES}. */
export function codeCacheOptions(cli: string, root: string, record = false): CodeCacheOptions {
	return {
		roots: [cli, join(root, "templates", ".compiled", sep)],
		packages: { files: CACHED_PACKAGE_FILES, dir: cli },
		record,
	};
}

interface State {
	record: boolean;
	/** Recording waits for the entry's own call: what loads before it is never cached. */
	armed: boolean;
	scripts: [Script, string, string][];
}

/** One per process, whichever copy of this module installed it (the recorder's, the entry's). */
const STATE = Symbol.for("theway-context.code-cache");
const shared = globalThis as { [STATE]?: State };

/** How a cached module's code refers to its own module, as Node's loader gives it. */
const WRAPPER = "(function (exports, require, module, __filename, __dirname) {\n";

/**
 * From now on, a file {@link CodeCacheOptions} names is compiled with its
 * cache when there is a fresh one. Once per process: a later call changes
 * nothing, but arms a recording installed before it (by the build's
 * recorder, preloaded), so that what a run records is what a run reads.
 */
export function useCodeCache(options: CodeCacheOptions): void {
	const existing = shared[STATE];
	if (existing !== undefined) {
		existing.armed = true;
		return;
	}
	if (crc32 === undefined) return; // no checksum to guard the caches with: none is used
	const record = options.record === true;
	const state: State = { record, armed: !record, scripts: [] };
	shared[STATE] = state;
	const original = proto._compile;
	const entry = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
	const packages = (options.packages?.files ?? []).map((file) => ({
		suffix: `${sep}node_modules${sep}${file.split("/").join(sep)}`,
		cache: join(options.packages?.dir ?? "", `${file.replace(/[/\\]/g, "__")}.cache`),
	}));
	/** Where the cache of `filename` is kept, if it has one. */
	const cachePath = (filename: string): string | undefined => {
		// The entry is compiled before any hook exists: no cache of it would ever be read.
		if (!state.armed || filename === entry) return undefined;
		if (filename.endsWith(".cjs") && options.roots.some((root) => filename.startsWith(root)))
			return `${filename}.cache`;
		return packages.find((p) => filename.endsWith(p.suffix))?.cache;
	};
	proto._compile = function (this: CjsModule, content: string, filename: string, ...rest) {
		// Anything else goes to Node as it came (later Nodes pass more than these two).
		// import() from a script compiled with a cache has no loader on Node 20: such a module is Node's.
		const path =
			typeof content === "string" && !mayImport(content) ? cachePath(filename) : undefined;
		if (path === undefined) return original.call(this, content, filename, ...rest);
		const cached = record ? undefined : cacheFor(path, content);
		if (cached === undefined && !record) return original.call(this, content, filename, ...rest);
		const script = new Script(wrapModule(content), {
			filename,
			lineOffset: -1, // the wrapper on a line of its own: lines and columns as in the file
			...(cached === undefined ? {} : { cachedData: cached }),
		});
		if (record) state.scripts.push([script, path, content]);
		const wrapper = script.runInThisContext({ displayErrors: true }) as (
			...args: unknown[]
		) => unknown;
		const require = requireOf(this, filename);
		return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
	};
}

/**
 * Whether `content` may hold a dynamic `import()`: the word `import`, then
 * white space, then `(` (what `/\bimport\s*\(/` finds; a file that only
 * looks like one is not cached either). Scanned with `indexOf`: the regular
 * expression took 15 ms over the render bundle, on every run.
 */
export function mayImport(content: string): boolean {
	for (let i = content.indexOf("import"); i !== -1; i = content.indexOf("import", i + 1)) {
		if (i > 0 && isWordChar(content.charCodeAt(i - 1))) continue;
		let j = i + 6;
		while (j < content.length && isJsSpace(content.charCodeAt(j))) j++;
		if (content.charCodeAt(j) === 0x28) return true;
	}
	return false;
}

/** `\w`: ASCII letters, digits and `_`. */
function isWordChar(c: number): boolean {
	return (
		(c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f
	);
}

/** `\s`: JavaScript's white space and line terminators. */
function isJsSpace(c: number): boolean {
	return (
		(c >= 0x09 && c <= 0x0d) ||
		c === 0x20 ||
		c === 0xa0 ||
		c === 0x1680 ||
		(c >= 0x2000 && c <= 0x200a) ||
		c === 0x2028 ||
		c === 0x2029 ||
		c === 0x202f ||
		c === 0x205f ||
		c === 0x3000 ||
		c === 0xfeff
	);
}

/** The `require` a module gets: through the module itself, so its parent and children are kept. */
function requireOf(module: CjsModule, filename: string): NodeJS.Require {
	const base = createRequire(filename);
	return Object.assign((id: string) => module.require(id), {
		resolve: base.resolve,
		main: base.main,
		cache: base.cache,
		extensions: base.extensions,
	}) as NodeJS.Require;
}

/** Writes the cache of every file compiled since {@link useCodeCache} with `record`. */
export function writeCodeCaches(): string[] {
	const state = shared[STATE];
	if (state === undefined || !state.record) return [];
	return state.scripts.map(([script, path, content]) => {
		const parts = [Buffer.from(process.versions.v8, "utf8"), Buffer.from(content, "utf8")];
		const framed = parts.flatMap((bytes) => [uint32(bytes.length), bytes]);
		const data = script.createCachedData();
		const checksum = uint32((crc32 as (data: Uint8Array) => number)(data));
		// Written whole, then renamed: an interrupted build leaves no half cache.
		writeFileSync(`${path}.tmp`, Buffer.concat([...framed, checksum, data]));
		renameSync(`${path}.tmp`, path);
		return path;
	});
}

function uint32(n: number): Buffer {
	const bytes = Buffer.alloc(LENGTH_BYTES);
	bytes.writeUInt32BE(n);
	return bytes;
}

/** V8's data in the cache at `path`, if this V8 made it from this very source, undamaged. */
function cacheFor(path: string, content: string): Buffer | undefined {
	let bytes: Buffer;
	try {
		bytes = readFileSync(path);
	} catch {
		return undefined;
	}
	const cache = cacheParts(bytes);
	if (cache?.v8 !== process.versions.v8 || !isSource(cache.source, content)) return undefined;
	return crc32?.(cache.data) === cache.checksum ? cache.data : undefined;
}

/**
 * Whether `bytes` are `content` in UTF-8: compared as bytes (encoding the
 * module's text is several times faster than decoding the cache's). A text
 * with a lone surrogate, which UTF-8 cannot hold as it is, never matches.
 */
function isSource(bytes: Buffer, content: string): boolean {
	const wellFormed = (content as { isWellFormed?: () => boolean }).isWellFormed?.();
	return wellFormed !== false && bytes.equals(Buffer.from(content, "utf8"));
}

/** A cache file's parts, its source as text, or undefined when it is cut short. */
export function parseCache(
	bytes: Buffer,
): { v8: string; source: string; checksum: number; data: Buffer } | undefined {
	const parts = cacheParts(bytes);
	return parts === undefined ? undefined : { ...parts, source: parts.source.toString("utf8") };
}

/** A cache file's parts, its source as bytes, or undefined when it is cut short. */
function cacheParts(
	bytes: Buffer,
): { v8: string; source: Buffer; checksum: number; data: Buffer } | undefined {
	let at = 0;
	const next = (): Buffer | undefined => {
		if (bytes.length < at + LENGTH_BYTES) return undefined;
		const end = at + LENGTH_BYTES + bytes.readUInt32BE(at);
		if (bytes.length < end) return undefined;
		const part = bytes.subarray(at + LENGTH_BYTES, end);
		at = end;
		return part;
	};
	const v8 = next();
	const source = next();
	if (v8 === undefined || source === undefined || at + LENGTH_BYTES >= bytes.length)
		return undefined;
	return {
		v8: v8.toString("utf8"),
		source,
		checksum: bytes.readUInt32BE(at),
		data: bytes.subarray(at + LENGTH_BYTES),
	};
}

/** The script V8 compiles for a module's source (its first line is line 1 with `lineOffset: -1`). */
export function wrapModule(content: string): string {
	return `${WRAPPER}${withoutHashbang(content)}\n})`;
}

/** A `#!` line kept as a comment (it is valid only at a file's very start). */
function withoutHashbang(content: string): string {
	return content.startsWith("#!") ? `//${content.slice(2)}` : content;
}

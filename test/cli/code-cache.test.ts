/**
 * V8's code cache of the command line's CommonJS files (src/cli/code-cache.ts):
 * the build ships a fresh cache of each bundle and precompiled set, V8
 * takes it, and a file changed since its cache was made (even to the same
 * length, which V8 alone would not notice), a damaged cache or one of
 * another V8 never runs; a cached module behaves as any other. Each case
 * runs in a child process: the cache patches Node's module loader.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Script } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	CACHED_PACKAGE_FILES,
	mayImport,
	parseCache,
	wrapModule,
} from "../../src/cli/code-cache.js";
import { ROOT } from "../support/serve.js";
import { tempDir } from "../support/temp.js";

const CODE_CACHE = join(ROOT, "dist/cli/code-cache.js");

/**
 * Runs `body` in a child after `useCodeCache` on `dir` (recording as the
 * build does: installed first, armed by a second call); returns its stdout.
 */
function child(dir: string, record: boolean, body: string): string {
	const options = `{ roots: [${JSON.stringify(`${dir}/`)}] }`;
	const script = `
		import { createRequire } from "node:module";
		import { useCodeCache, writeCodeCaches } from ${JSON.stringify(CODE_CACHE)};
		useCodeCache({ ...${options}, record: ${record} });
		useCodeCache(${options});
		const require = createRequire(${JSON.stringify(`${dir}/`)});
		${body}
	`;
	const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
		encoding: "utf8",
	});
	// Node 20 calls import() through the main context's loader "experimental", once.
	const warning =
		/^\(node:\d+\) ExperimentalWarning: vm\.USE_MAIN_CONTEXT_DEFAULT_LOADER|^\(Use `node --trace-warnings/;
	expect(result.stderr.split("\n").filter((line) => line !== "" && !warning.test(line))).toEqual(
		[],
	);
	expect(result.status).toBe(0);
	return result.stdout.trim();
}

/** The parts of a cache file (it must have them all). */
function parts(cache: Buffer): { v8: string; source: string; data: Buffer } {
	const parsed = parseCache(cache);
	if (parsed === undefined) throw new Error("a cache cut short");
	return parsed;
}

/** Whether V8 takes the data of `cache` for `source`. */
function v8Takes(source: string, cache: Buffer, filename: string): boolean {
	const script = new Script(wrapModule(source), { filename, cachedData: parts(cache).data });
	return !script.cachedDataRejected;
}

/**
 * Which of the shipped `caches` ([file, cache]) V8 takes in a process set
 * up as the command line's (its V8 flags first: a cache is taken only
 * under the flags it was made with).
 */
function takenByTheCommandLine(caches: readonly [string, string][]): boolean[] {
	const script = `
		import { readFileSync } from "node:fs";
		import { Script } from "node:vm";
		import { useCommandLineHeap } from ${JSON.stringify(join(ROOT, "dist/cli/heap.js"))};
		import { parseCache, wrapModule } from ${JSON.stringify(CODE_CACHE)};
		useCommandLineHeap();
		const taken = ${JSON.stringify(caches)}.map(([file, path]) => {
			const cache = parseCache(readFileSync(path));
			const script = new Script(wrapModule(readFileSync(file, "utf8")), { filename: file, cachedData: cache.data });
			return !script.cachedDataRejected;
		});
		console.log(JSON.stringify(taken));
	`;
	const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
		encoding: "utf8",
	});
	expect(result.stderr).toBe("");
	return JSON.parse(result.stdout) as boolean[];
}

/** A cache made in a child from `source`, as `dir/m.cjs`; its path. */
function recorded(dir: string, source: string): string {
	const file = join(dir, "m.cjs");
	writeFileSync(file, source);
	child(dir, true, "require('./m.cjs'); writeCodeCaches();");
	return `${file}.cache`;
}

describe("the code cache", () => {
	it("the build ships a fresh cache of every command bundle, zod, the price database, precompiled set and cached package, and the command line's V8 takes it", () => {
		const files = [
			...[
				"render",
				"serve",
				"build",
				"inspect",
				"diff",
				"preview",
				"replay",
				"import",
				"zod",
				"genai-prices",
			].map((c) => join(ROOT, `dist/cli/${c}.cjs`)),
			...readdirSync(join(ROOT, "templates/.compiled"))
				.filter((f) => f.endsWith(".cjs"))
				.map((f) => join(ROOT, "templates/.compiled", f)),
		];
		const caches: [string, string][] = [
			...files.map((file): [string, string] => [file, `${file}.cache`]),
			...CACHED_PACKAGE_FILES.map((file): [string, string] => [
				join(ROOT, "node_modules", file),
				join(ROOT, "dist/cli", `${file.replace(/\//g, "__")}.cache`),
			]),
		];
		expect(CACHED_PACKAGE_FILES).toContain("handlebars/dist/handlebars.runtime.js");
		for (const [file, path] of caches) {
			expect(existsSync(path), file).toBe(true);
			const source = readFileSync(file, "utf8");
			const cache = readFileSync(path);
			expect(parts(cache).source === source, file).toBe(true);
			expect(parts(cache).v8, file).toBe(process.versions.v8);
		}
		const taken = takenByTheCommandLine(caches);
		expect(caches.filter((_, i) => taken[i] !== true)).toEqual([]);
		// The entry, and the error class it loads, are compiled before the cache is in place.
		expect(existsSync(join(ROOT, "dist/cli/bin.cjs.cache"))).toBe(false);
		expect(existsSync(join(ROOT, "dist/cli/errors.cjs.cache"))).toBe(false);
	});

	it("the caches of replay and import hold what a run of each compiled, not only the top level", () => {
		for (const command of ["replay", "import"]) {
			const file = join(ROOT, `dist/cli/${command}.cjs`);
			// What loading alone compiles: the top level and what V8 compiles eagerly with it.
			const loaded = new Script(wrapModule(readFileSync(file, "utf8")), { filename: file });
			const topLevel = loaded.createCachedData().length;
			const shipped = parts(readFileSync(`${file}.cache`)).data.length;
			expect(shipped, command).toBeGreaterThan(topLevel * 1.2);
		}
	});

	it("records what a run compiled, and a later run gives the same results from it", () => {
		const dir = tempDir("theway-code-cache-");
		writeFileSync(join(dir, "m.cjs"), "module.exports = (n) => n * 2 + 1;\n");
		expect(child(dir, true, "console.log(require('./m.cjs')(20)); writeCodeCaches();")).toBe("41");
		const cache = readFileSync(join(dir, "m.cjs.cache"));
		expect(v8Takes(readFileSync(join(dir, "m.cjs"), "utf8"), cache, join(dir, "m.cjs"))).toBe(true);
		expect(child(dir, false, "console.log(require('./m.cjs')(20));")).toBe("41");
	});

	it("a file changed since its cache was made runs as it is now, even at the same length", () => {
		const dir = tempDir("theway-code-cache-");
		const file = join(dir, "m.cjs");
		writeFileSync(file, "module.exports = (n) => n * 2 + 1;\n");
		child(dir, true, "require('./m.cjs')(1); writeCodeCaches();");
		writeFileSync(file, "module.exports = (n) => n * 3 + 1;\n");
		expect(child(dir, false, "console.log(require('./m.cjs')(20));")).toBe("61");
	});

	it("a module's text with a lone surrogate (another loader's) never runs from the cache of its UTF-8", () => {
		const dir = tempDir("theway-code-cache-");
		writeFileSync(join(dir, "m.cjs"), 'module.exports = "\uFFFD";\n');
		child(dir, true, "require('./m.cjs'); writeCodeCaches();");
		// The text given to the loader holds U+D800 where the file holds U+FFFD: the same UTF-8.
		const body = `
			const { default: Module } = await import("node:module");
			const { readFileSync } = await import("node:fs");
			Module._extensions[".cjs"] = (module, filename) =>
				module._compile(readFileSync(filename, "utf8").replace("\\uFFFD", "\\uD800"), filename);
			console.log(require("./m.cjs").charCodeAt(0).toString(16));`;
		expect(child(dir, false, body)).toBe("d800");
	});

	it("a damaged cache is never run: cut short, its V8 data changed, or made by another V8", () => {
		const dir = tempDir("theway-code-cache-");
		// Enough code that V8's data is long, and a changed byte lands in code.
		const body = Array.from({ length: 200 }, (_, i) => `const f${i} = (n) => n + ${i};`).join("\n");
		const path = recorded(dir, `${body}\nmodule.exports = f199(1);\n`);
		const good = readFileSync(path);
		const { data } = parts(good);
		const head = good.subarray(0, good.length - data.length);
		const run = () => child(dir, false, "console.log(require('./m.cjs'));");
		for (let at = 0; at < data.length - 64; at += Math.ceil(data.length / 12)) {
			const bad = Buffer.from(good);
			for (let i = head.length + at; i < head.length + at + 64; i++)
				bad.writeUInt8(bad.readUInt8(i) ^ 0x5a, i);
			writeFileSync(path, bad);
			expect(run(), `bytes ${at} to ${at + 64} changed`).toBe("200");
		}
		for (const cut of [2, 10, head.length - 3, head.length]) {
			writeFileSync(path, good.subarray(0, cut));
			expect(run(), `cut at ${cut}`).toBe("200");
		}
		const version = Buffer.from(`${process.versions.v8}-other`);
		const length = Buffer.alloc(4);
		length.writeUInt32BE(version.length);
		const v8Length = 4 + good.readUInt32BE(0);
		writeFileSync(path, Buffer.concat([length, version, good.subarray(v8Length)]));
		expect(parts(readFileSync(path)).v8).toBe(`${process.versions.v8}-other`);
		expect(run()).toBe("200");
	});

	it("a cached module behaves as any other (require, lines and columns); one with import() is not cached", () => {
		const dir = tempDir("theway-code-cache-");
		writeFileSync(join(dir, "dep.cjs"), "module.exports = 'dep';\n");
		writeFileSync(join(dir, "esm.mjs"), "export const value = 'esm';\n");
		const source = [
			"const dep = require('./dep.cjs'); const where = () => { throw new Error('here'); };",
			"module.exports = {",
			"  dep,",
			"  parent: require.cache[require.resolve('./dep.cjs')].parent === module,",
			"  children: module.children.map((c) => c.id.endsWith('dep.cjs')),",
			"  where,",
			"};",
		].join("\n");
		writeFileSync(join(dir, "m.cjs"), source);
		const probe = `
			const m = require('./m.cjs');
			let at = '';
			try { m.where(); } catch (error) { at = /m\\.cjs:(\\d+:\\d+)/.exec(error.stack)?.[1]; }
			console.log(JSON.stringify({ dep: m.dep, parent: m.parent, children: m.children, at }));
		`;
		const expected = { dep: "dep", parent: true, children: [true], at: "1:63" };
		expect(JSON.parse(child(dir, true, `${probe} writeCodeCaches();`))).toEqual(expected);
		expect(existsSync(join(dir, "m.cjs.cache"))).toBe(true);
		expect(JSON.parse(child(dir, false, probe))).toEqual(expected);
		writeFileSync(
			join(dir, "i.cjs"),
			"module.exports = () => import('./esm.mjs').then((m) => m.value);\n",
		);
		const load = "console.log(await require('./i.cjs')());";
		expect(child(dir, true, `${load} writeCodeCaches();`)).toBe("esm");
		expect(existsSync(join(dir, "i.cjs.cache"))).toBe(false);
		expect(child(dir, false, load)).toBe("esm");
	});

	it("files outside the given folders, and the process's entry, are compiled as usual", () => {
		const dir = tempDir("theway-code-cache-");
		writeFileSync(join(dir, "m.cjs"), "module.exports = 1;\n");
		const other = tempDir("theway-code-cache-other-");
		writeFileSync(join(other, "n.cjs"), "module.exports = 2;\n");
		child(
			dir,
			true,
			`require('./m.cjs'); require(${JSON.stringify(join(other, "n.cjs"))}); writeCodeCaches();`,
		);
		expect(existsSync(join(dir, "m.cjs.cache"))).toBe(true);
		expect(existsSync(join(other, "n.cjs.cache"))).toBe(false);
	});
});

describe("the dynamic import() scan", () => {
	it("finds what /\\bimport\\s*\\(/ finds, in any text", () => {
		const unit = fc.constantFrom(
			"import",
			"(",
			" ",
			"\u2028",
			"\u00a0",
			"\t",
			"x",
			"_",
			"$",
			".",
			"i",
			"\n",
		);
		let found = 0;
		fc.assert(
			fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
				const text = parts.join("");
				const expected = /\bimport\s*\(/.test(text);
				if (expected) found++;
				expect(mayImport(text)).toBe(expected);
			}),
			{ numRuns: 2000 },
		);
		expect(found).toBeGreaterThan(0);
	});
});

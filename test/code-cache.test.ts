/**
 * V8's code cache of the command line's CommonJS files (src/cli/code-cache.ts):
 * the build ships a fresh cache of each bundle and precompiled set, V8
 * takes it, and a file changed since its cache was made (even to the same
 * length, which V8 alone would not notice) runs as it is now. Each case runs
 * in a child process: the cache patches Node's module loader.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { join } from "node:path";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/serve.js";
import { tempDir } from "./support/temp.js";

const CODE_CACHE = join(ROOT, "dist/cli/code-cache.js");

/** Runs `body` in a child, after `useCodeCache([dir], record)`; returns its stdout. */
function child(dir: string, record: boolean, body: string): string {
	const script = `
		import { createRequire } from "node:module";
		import { useCodeCache, writeCodeCaches } from ${JSON.stringify(CODE_CACHE)};
		useCodeCache({ roots: [${JSON.stringify(`${dir}/`)}], record: ${record} });
		const require = createRequire(${JSON.stringify(`${dir}/`)});
		${body}
	`;
	const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
		encoding: "utf8",
	});
	expect(result.stderr).toBe("");
	expect(result.status).toBe(0);
	return result.stdout.trim();
}

/** The source a cache was made from, and V8's data. */
function parts(cache: Buffer): { source: string; data: Buffer } {
	const end = 4 + cache.readUInt32BE(0);
	return { source: cache.toString("utf8", 4, end), data: cache.subarray(end) };
}

/** Whether V8 takes the data of `cache` for `source`. */
function v8Takes(source: string, cache: Buffer, filename: string): boolean {
	const script = new Script(Module.wrap(source), { filename, cachedData: parts(cache).data });
	return !script.cachedDataRejected;
}

describe("the code cache", () => {
	it("the build ships a fresh cache of every command bundle, precompiled set and the Handlebars runtime, and V8 takes it", () => {
		const files = [
			...["render", "serve", "build", "inspect", "diff", "preview", "errors"].map((c) =>
				join(ROOT, `dist/cli/${c}.cjs`),
			),
			...readdirSync(join(ROOT, "templates/.compiled"))
				.filter((f) => f.endsWith(".cjs"))
				.map((f) => join(ROOT, "templates/.compiled", f)),
		];
		const caches: [string, string][] = [
			...files.map((file): [string, string] => [file, `${file}.cache`]),
			[
				join(ROOT, "node_modules/handlebars/dist/handlebars.runtime.js"),
				join(ROOT, "dist/cli/handlebars__dist__handlebars.runtime.js.cache"),
			],
		];
		for (const [file, path] of caches) {
			expect(existsSync(path), file).toBe(true);
			const source = readFileSync(file, "utf8");
			const cache = readFileSync(path);
			expect(parts(cache).source === source, file).toBe(true);
			expect(v8Takes(source, cache, file), file).toBe(true);
		}
		// The entry is compiled before the cache is in place: none is made for it.
		expect(existsSync(join(ROOT, "dist/cli/bin.cjs.cache"))).toBe(false);
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

	it("a damaged cache is ignored", () => {
		const dir = tempDir("theway-code-cache-");
		const file = join(dir, "m.cjs");
		writeFileSync(file, "module.exports = 'fine';\n");
		child(dir, true, "require('./m.cjs'); writeCodeCaches();");
		const cache = readFileSync(`${file}.cache`);
		const { data } = parts(cache);
		const head = cache.subarray(0, cache.length - data.length);
		writeFileSync(`${file}.cache`, Buffer.concat([head, Buffer.alloc(64, 7)]));
		expect(child(dir, false, "console.log(require('./m.cjs'));")).toBe("fine");
		writeFileSync(`${file}.cache`, Buffer.alloc(2));
		expect(child(dir, false, "console.log(require('./m.cjs'));")).toBe("fine");
		writeFileSync(`${file}.cache`, head.subarray(0, head.length - 3)); // cut inside the source
		expect(child(dir, false, "console.log(require('./m.cjs'));")).toBe("fine");
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

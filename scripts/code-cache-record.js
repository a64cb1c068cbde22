/**
 * Preloaded (`node --import`) by scripts/code-cache.js: records what V8
 * compiles of the package's CommonJS files, and writes the caches at exit.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { codeCacheOptions, useCodeCache, writeCodeCaches } from "../dist/cli/code-cache.js";
import { useCommandLineHeap } from "../dist/cli/heap.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// V8 takes a cache only under the flags it was made with: the command line's.
useCommandLineHeap();
useCodeCache(codeCacheOptions(join(ROOT, "dist/cli/"), ROOT, true));
process.on("exit", () => {
	for (const file of writeCodeCaches()) process.stderr.write(`code cache ${file}\n`);
});

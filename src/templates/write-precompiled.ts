/**
 * Writing the precompiled sets of a templates folder: the package's build
 * step (`npm run precompile`, run by `prepare`, so by `npm install` in a
 * clone and before `npm pack`). The runtime only reads them, and never
 * writes into its own install folder: a stale or missing one is compiled in
 * memory instead.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { makeFolders } from "../folders.js";
import { precompileTemplateSet } from "./compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "./load.js";
import { precompiledPath } from "./precompiled.js";

/**
 * Checks and precompiles every set under `root`; returns the files written.
 * The module (and code cache) of a set that is no longer there is removed.
 */
export function writePrecompiledSets(root: string = DEFAULT_TEMPLATES_DIR): string[] {
	const written: string[] = [];
	for (const source of readTemplateSets(root).values()) {
		const path = precompiledPath(root, source.version);
		const module = precompileTemplateSet(source);
		makeFolders(dirname(path));
		writeFileSync(path, module);
		written.push(path);
	}
	const folder = dirname(precompiledPath(root, "v1"));
	const kept = new Set(written.map((path) => basename(path)));
	for (const name of existsSync(folder) ? readdirSync(folder) : []) {
		const module = name.replace(/\.cache$/, "");
		if (/^v\d+\.cjs$/.test(module) && !kept.has(module))
			rmSync(join(folder, name), { force: true });
	}
	return written;
}

/**
 * Writing the precompiled sets of a templates folder: the package's build
 * step (`npm run precompile`, run by `prepare`, so by `npm install` in a
 * clone and before `npm pack`). The runtime only reads them, and never
 * writes into its own install folder: a stale or missing one is compiled in
 * memory instead.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { precompileTemplateSet } from "./compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "./load.js";
import { precompiledPath } from "./precompiled.js";

/** Checks and precompiles every set under `root`; returns the files written. */
export function writePrecompiledSets(root: string = DEFAULT_TEMPLATES_DIR): string[] {
	const written: string[] = [];
	for (const source of readTemplateSets(root).values()) {
		const path = precompiledPath(root, source.version);
		const module = precompileTemplateSet(source);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, module);
		written.push(path);
	}
	return written;
}

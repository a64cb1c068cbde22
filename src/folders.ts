/**
 * Making a folder and the folders above it. Not `mkdirSync(path, {
 * recursive: true })`: on Node 20 it spins forever where a file system
 * answers a new folder with ENOENT although its parent exists (`/proc`), so
 * a command given such a path hung instead of failing. Here each missing
 * folder is made once, from the top, and the first refusal is thrown.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** Makes `path` and every missing folder above it; a folder already there is fine. */
export function makeFolders(path: string): void {
	const missing: string[] = [];
	for (let at = path; !isFolder(at); at = dirname(at)) {
		missing.push(at);
		if (dirname(at) === at) break;
	}
	for (const folder of missing.reverse()) {
		try {
			mkdirSync(folder);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !isFolder(folder)) throw error;
		}
	}
}

function isFolder(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

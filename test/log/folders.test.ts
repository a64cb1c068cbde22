/**
 * Making folders (src/folders.ts): every missing one above a path, once; one
 * already there is fine; a file system that refuses a folder is an error at
 * once (Node 20's recursive mkdirSync spins forever on `/proc`).
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFolders } from "../../src/folders.js";
import { tempDir } from "../support/temp.js";

describe("makeFolders", () => {
	it("makes every missing folder above a path, and is content with one already there", () => {
		const dir = tempDir();
		const deep = join(dir, "a", "b", "c");
		makeFolders(deep);
		expect(statSync(deep).isDirectory()).toBe(true);
		makeFolders(deep);
		makeFolders(dir);
		expect(statSync(deep).isDirectory()).toBe(true);
	});

	it("fails, and at once, where a folder cannot be made", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "file"), "");
		expect(() => makeFolders(join(dir, "file", "below"))).toThrow(/ENOTDIR|EEXIST/);
		if (existsSync("/proc/self")) expect(() => makeFolders("/proc/no-such/folder")).toThrow();
	});
});

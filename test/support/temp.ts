/**
 * Temporary folders for tests: each one made here is removed after the last
 * test of the file that made it (the hook is registered when a test file
 * first imports this module), so no run leaves a folder behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
	for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under the system's temporary folder, removed after the file's tests. */
export function tempDir(prefix = "theway-test-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	made.push(dir);
	return dir;
}

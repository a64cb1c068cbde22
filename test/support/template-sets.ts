/** Deliberately broken template sets: a copy of the bundled v1 set with some files changed. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");
export const V1 = join(ROOT, "templates/v1");

/**
 * A templates folder holding one set `v1`, the bundled one with each file in
 * `changes` replaced (a string) or rewritten (a function of its text);
 * `null` deletes the file.
 */
export function templateSet(
	changes: Record<string, string | null | ((text: string) => string)> = {},
): string {
	const root = mkdtempSync(join(tmpdir(), "theway-templates-"));
	cpSync(V1, join(root, "v1"), { recursive: true });
	cpSync(join(ROOT, "categories.yaml"), join(root, "categories.yaml"));
	for (const [name, change] of Object.entries(changes)) {
		const file = name === "categories.yaml" ? join(root, name) : join(root, "v1", name);
		if (change === null) rmSync(file);
		else
			writeFileSync(file, typeof change === "string" ? change : change(readFileSync(file, "utf8")));
	}
	return root;
}

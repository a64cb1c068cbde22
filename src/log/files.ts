/** Finding session logs on disk: the `.jsonl` files under a folder. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every `.jsonl` file under `dir`, searched recursively, sorted; none when `dir` does not exist. */
export function findSessionLogs(dir: string): string[] {
	if (!existsSync(dir)) return [];
	const out: string[] = [];
	const walk = (d: string) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			const path = join(d, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith(".jsonl")) out.push(path);
		}
	};
	walk(dir);
	return out.sort();
}

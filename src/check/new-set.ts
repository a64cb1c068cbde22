/**
 * Making the next template set: the newest set's folder copied, file by
 * file, to the next version (`v2` → `v3`), with the `categories.yaml` it
 * uses (its own, or the shared one: the new set gets a copy of its own, so
 * editing it changes no older set), and the lock given the new set's entry,
 * which is the newest set's (a set's fingerprint and hashes are of its
 * texts, not of its name). A set that exists is never written over, and
 * nothing is copied into a set folder, so no set ends up inside another.
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ContextError } from "../errors.js";
import { LOCK_FILE, type Lock, LockSchema } from "../rules/lock.js";
import { CATEGORIES_FILE, readTemplateSets, SET_FOLDER } from "../templates/load.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";

export interface NewSet {
	/** The set copied, and the one made. */
	from: string;
	version: string;
	/** The new set's folder. */
	dir: string;
	/** The files copied into it. */
	files: string[];
	/** The `categories.yaml` copied into it: the newest set's own, or the shared one it used. */
	categories: { from: string; shared: boolean };
	/** Whether the lock now holds the new set (false: the newest set was not in it, or no lock). */
	locked: boolean;
}

/** Copies the newest set of `templates` to the next version and records it in the lock. */
export function makeNextSet(templates: string): NewSet {
	const root = resolve(templates);
	const sets = readTemplateSets(root);
	const newest = [...sets.values()].at(-1);
	if (newest === undefined || !SET_FOLDER.test(newest.version) || newest.dir === root) {
		throw new ContextError(
			"io",
			"not a templates folder of sets (v1/, v2/, …): name the folder that holds them",
			{ file: root },
		);
	}
	const version = `v${Number(newest.version.slice(1)) + 1}`;
	const dir = join(root, version);
	if (existsSync(dir)) {
		throw new ContextError("io", `${version} exists already; nothing was copied`, { file: dir });
	}
	// The lock is read before anything is written: a lock that cannot be read leaves no set behind.
	const lock = lockWith(root, newest.version, version);
	mkdirSync(dir);
	const files: string[] = [];
	// The set's own templates, never a folder; then the categories it uses, as its own.
	for (const entry of readdirSync(newest.dir, { withFileTypes: true })) {
		if (!entry.isFile() || !entry.name.endsWith(".hbs")) continue;
		copyFileSync(join(newest.dir, entry.name), join(dir, entry.name));
		files.push(entry.name);
	}
	const categories = newest.categories.file;
	writeFileSync(join(dir, CATEGORIES_FILE), newest.categories.text);
	files.push(CATEGORIES_FILE);
	return {
		from: newest.version,
		version,
		dir,
		files: files.sort(),
		categories: { from: categories, shared: dirname(categories) !== newest.dir },
		locked: lock !== undefined && writeLock(lock),
	};
}

/**
 * The lock with `to` given the entry of `from`, not yet written; undefined
 * when there is no lock or no entry to copy. A lock that cannot be read throws.
 */
function lockWith(
	root: string,
	from: string,
	to: string,
): { file: string; lock: Lock } | undefined {
	const file = join(root, LOCK_FILE);
	if (!existsSync(file)) return undefined;
	const lock = validateYaml(
		LockSchema,
		parseYaml(readFileSync(file, "utf8"), file, "bad_template"),
		file,
		"bad_template",
		"lock file",
	);
	const entry = lock.sets[from];
	if (entry === undefined) return undefined;
	lock.sets[to] = structuredClone(entry);
	return { file, lock };
}

function writeLock({ file, lock }: { file: string; lock: Lock }): true {
	writeFileSync(file, `${JSON.stringify(lock, null, "\t")}\n`);
	return true;
}

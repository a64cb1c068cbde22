/**
 * The sessions a preview serves: one log, or every `.jsonl` under a folder.
 * The page names a session by the id this catalogue gave it (its path
 * relative to the folder) and the server looks that id up here: a path sent
 * by the page is never opened, so nothing outside the list can be read.
 */
import { lstatSync, readdirSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { ContextError } from "../errors.js";

/** How deep a folder is searched for logs (pi keeps one folder per working directory). */
const MAX_DEPTH = 4;
/** Folders never searched: hidden ones and dependency trees. */
const SKIPPED = new Set(["node_modules"]);

export interface SessionEntry {
	/** The id the page uses: the path relative to the folder, with `/`. */
	id: string;
	file: string;
}

export interface SessionPage {
	/** Logs in the catalogue. */
	total: number;
	/** Logs whose id contains the query. */
	matched: number;
	offset: number;
	items: { id: string }[];
}

export class SessionCatalog {
	private entries: SessionEntry[] = [];
	private readonly byId = new Map<string, SessionEntry>();

	/** `target`: a session log or a folder of them. */
	constructor(readonly target: string) {
		this.target = resolve(target);
		this.rescan();
	}

	/** Whether the catalogue is one log rather than a folder. */
	get single(): boolean {
		return !isDirectory(this.target);
	}

	/** Reads the folder again (logs added or removed since). */
	rescan(): void {
		const stat = lstatSync(this.target, { throwIfNoEntry: false });
		if (stat === undefined) {
			throw new ContextError("io", "no such session log or folder", { file: this.target });
		}
		const files = stat.isDirectory() ? findLogs(this.target) : [this.target];
		const root = stat.isDirectory() ? this.target : resolve(this.target, "..");
		this.entries = files
			.map((file) => ({ id: relative(root, file).split(sep).join("/"), file }))
			.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		this.byId.clear();
		for (const entry of this.entries) this.byId.set(entry.id, entry);
	}

	/** The log with this id, or undefined when the catalogue has none. */
	get(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}

	get size(): number {
		return this.entries.length;
	}

	/** One page of the ids containing `query` (case-insensitive), in order. */
	page(offset: number, limit: number, query = ""): SessionPage {
		const needle = query.toLowerCase();
		const matching =
			needle === ""
				? this.entries
				: this.entries.filter((e) => e.id.toLowerCase().includes(needle));
		return {
			total: this.entries.length,
			matched: matching.length,
			offset,
			items: matching.slice(offset, offset + limit).map(({ id }) => ({ id })),
		};
	}

	/** The folder watched for appended or added logs. */
	get folder(): string {
		return this.single ? resolve(this.target, "..") : this.target;
	}

	/** A display name for the catalogue. */
	get label(): string {
		return this.single ? basename(this.target) : this.target;
	}
}

function isDirectory(path: string): boolean {
	return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Every `.jsonl` regular file under `dir`, symbolic links not followed. */
function findLogs(dir: string, depth = 0, out: string[] = []): string[] {
	for (const dirent of readdirSync(dir, { withFileTypes: true })) {
		if (dirent.name.startsWith(".")) continue;
		const path = join(dir, dirent.name);
		if (dirent.isFile() && dirent.name.endsWith(".jsonl")) out.push(path);
		else if (dirent.isDirectory() && depth < MAX_DEPTH && !SKIPPED.has(dirent.name))
			findLogs(path, depth + 1, out);
	}
	return out;
}

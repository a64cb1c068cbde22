/**
 * The sessions a preview serves: one log, or every `.jsonl` under a folder.
 * The page names a session by the id this catalogue gave it (its path
 * relative to the folder) and the server looks that id up here: a path sent
 * by the page is never opened, so nothing outside the list can be read.
 * The list is ordered by name, size, date or message count; message counts
 * are taken only when asked for, and kept while a file's size and date hold.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { ContextError } from "../errors.js";
import type { SessionItem, SessionSort } from "./protocol.js";

/**
 * How many folders deep a folder is searched for logs (pi keeps one folder
 * per working directory; a corpus may nest a few more).
 */
export const MAX_DEPTH = 8;
/** Folders never searched: hidden ones and dependency trees. */
const SKIPPED = new Set(["node_modules"]);

export interface SessionEntry {
	/** The id the page uses: the path relative to the folder, with `/`. */
	id: string;
	file: string;
	size: number;
	mtime: number;
}

export interface SessionPage {
	/** Logs in the catalogue. */
	total: number;
	/** Logs whose id contains the query. */
	matched: number;
	/** Folders below the depth searched, never read (relative to the folder, with `/`). */
	notSearched: string[];
	offset: number;
	items: SessionItem[];
}

export class SessionCatalog {
	private entries: SessionEntry[] = [];
	/** The folders below {@link MAX_DEPTH} the last scan left out. */
	notSearched: string[] = [];
	private readonly byId = new Map<string, SessionEntry>();
	/** Message counts by file, with the size and date they were counted at. */
	private readonly counts = new Map<string, { size: number; mtime: number; messages: number }>();

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
		const deeper: string[] = [];
		const files = stat.isDirectory() ? findLogs(this.target, deeper) : [this.target];
		const root = stat.isDirectory() ? this.target : resolve(this.target, "..");
		this.notSearched = deeper.map((d) => relative(root, d).split(sep).join("/")).sort();
		this.entries = files
			.map((file) => {
				const stat = lstatSync(file, { throwIfNoEntry: false });
				return {
					id: relative(root, file).split(sep).join("/"),
					file,
					size: stat?.size ?? 0,
					mtime: stat?.mtimeMs ?? 0,
				};
			})
			.sort(byName);
		this.byId.clear();
		for (const entry of this.entries) this.byId.set(entry.id, entry);
	}

	/** Reads the size and date of these sessions again (they were appended to or replaced). */
	restat(ids: readonly string[]): void {
		for (const id of ids) {
			const entry = this.byId.get(id);
			const stat =
				entry === undefined ? undefined : lstatSync(entry.file, { throwIfNoEntry: false });
			if (entry === undefined || stat === undefined) continue;
			entry.size = stat.size;
			entry.mtime = stat.mtimeMs;
		}
	}

	/** The log with this id, or undefined when the catalogue has none. */
	get(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}

	get size(): number {
		return this.entries.length;
	}

	/**
	 * One page of the sessions whose id contains `query` (case-insensitive),
	 * by name (A to Z), or largest, newest, most messages first.
	 */
	page(offset: number, limit: number, query = "", sort: SessionSort = "name"): SessionPage {
		const needle = query.toLowerCase();
		const matching =
			needle === ""
				? [...this.entries]
				: this.entries.filter((e) => e.id.toLowerCase().includes(needle));
		const counted = sort === "messages";
		if (sort === "size") matching.sort((a, b) => b.size - a.size || byName(a, b));
		if (sort === "date") matching.sort((a, b) => b.mtime - a.mtime || byName(a, b));
		if (counted) {
			matching.sort((a, b) => this.messages(b) - this.messages(a) || byName(a, b));
		}
		return {
			total: this.entries.length,
			matched: matching.length,
			notSearched: this.notSearched,
			offset,
			items: matching.slice(offset, offset + limit).map((e) => ({
				id: e.id,
				size: e.size,
				mtime: e.mtime,
				...(counted ? { messages: this.messages(e) } : {}),
			})),
		};
	}

	/** The message entries of a log (every branch), counted once per size and date. */
	private messages(entry: SessionEntry): number {
		const known = this.counts.get(entry.file);
		if (known !== undefined && known.size === entry.size && known.mtime === entry.mtime) {
			return known.messages;
		}
		const messages = countMessages(entry.file);
		this.counts.set(entry.file, { size: entry.size, mtime: entry.mtime, messages });
		return messages;
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

function byName(a: SessionEntry, b: SessionEntry): number {
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A message entry's type field, as pi writes it (with or without spaces). */
const MESSAGE_TYPE = /"type"\s*:\s*"message"/;

/**
 * Lines of `file` that are message entries, read a block at a time (a huge
 * log is never held whole); an unreadable file counts 0.
 */
function countMessages(file: string): number {
	let fd: number;
	try {
		fd = openSync(file, "r");
	} catch {
		return 0;
	}
	const buffer = Buffer.alloc(1 << 20);
	let count = 0;
	let rest = "";
	try {
		for (;;) {
			const n = readSync(fd, buffer, 0, buffer.length, null);
			if (n === 0) break;
			const lines = (rest + buffer.toString("utf8", 0, n)).split("\n");
			rest = lines.pop() ?? "";
			for (const line of lines) if (MESSAGE_TYPE.test(line)) count++;
		}
	} catch {
		// A file that fails part way counts what was read.
	} finally {
		closeSync(fd);
	}
	return count + (MESSAGE_TYPE.test(rest) ? 1 : 0);
}

function isDirectory(path: string): boolean {
	return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Every `.jsonl` regular file under `dir`, symbolic links not followed; the
 * folders below the depth searched go to `deeper`, never silently dropped.
 */
function findLogs(dir: string, deeper: string[], depth = 0, out: string[] = []): string[] {
	for (const dirent of readdirSync(dir, { withFileTypes: true })) {
		if (dirent.name.startsWith(".")) continue;
		const path = join(dir, dirent.name);
		if (dirent.isFile() && dirent.name.endsWith(".jsonl")) out.push(path);
		else if (!dirent.isDirectory() || SKIPPED.has(dirent.name)) continue;
		else if (depth < MAX_DEPTH) findLogs(path, deeper, depth + 1, out);
		else deeper.push(path);
	}
	return out;
}

/**
 * The editor's view of the templates folders: each folder's sets as read
 * from disk, with the unsaved texts of open documents laid over them, so
 * every check sees what the author sees. Disk reads happen once per folder
 * and again only when a watched file changes; front-matter is parsed once
 * per distinct text.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import type { TemplateSetSource } from "../templates/compile.js";
import { parseTemplateFile, type TemplateFile } from "../templates/front-matter.js";
import { readTemplateSets, SET_FOLDER } from "../templates/load.js";

/** The lock file's name (as the build step writes it). */
export const LOCK_NAME = "lock.json";

/**
 * The folder of templates `file` belongs to: upward, the first with a lock or
 * `v<N>` sets; else its own folder when it is a set; else none (an unrelated .hbs).
 */
export function findTemplatesRoot(file: string): string | undefined {
	let dir = dirname(resolve(file));
	for (;;) {
		if (existsSync(join(dir, LOCK_NAME)) || holdsSets(dir)) return dir;
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	// A set folder on its own: its .hbs files, with a categories.yaml as `readTemplateSets` finds one.
	const own = dirname(resolve(file));
	const categories = [own, dirname(own), dirname(dirname(own))].map((d) =>
		join(d, "categories.yaml"),
	);
	return categories.some((c) => existsSync(c)) ? own : undefined;
}

function holdsSets(dir: string): boolean {
	try {
		return readdirSync(dir).some((n) => SET_FOLDER.test(n) && statSync(join(dir, n)).isDirectory());
	} catch {
		return false;
	}
}

/** A parsed template file, or the located error that stopped its parse. */
export type Parsed = { ok: true; file: TemplateFile } | { ok: false; error: ContextError };

const parses = new Map<string, Parsed>();

/**
 * {@link parseTemplateFile}, remembered by file, text and the name checked
 * (a keystroke re-parses one file).
 */
export function parseCached(text: string, file: string, name?: string): Parsed {
	const key = `${name ?? ""}\0${file}\0${text}`;
	let parsed = parses.get(key);
	if (parsed === undefined) {
		try {
			parsed = { ok: true, file: parseTemplateFile(text, file, name) };
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			parsed = { ok: false, error };
		}
		if (parses.size > 2000) parses.clear();
		parses.set(key, parsed);
	}
	return parsed;
}

/** One templates folder: its sets on disk, under the open documents' texts. */
export class TemplatesFolder {
	private disk: Map<string, TemplateSetSource> | undefined;
	private diskError: ContextError | undefined;
	/** What reading the folder skipped (a `v2-wip/` that is not a set), as `build` reports it. */
	private diskWarnings: Diagnostic[] = [];
	/** The lock's text on disk (null: there is none), read once per reload. */
	private lockText: string | null | undefined;

	constructor(
		readonly root: string,
		private readonly overlay: ReadonlyMap<string, string>,
	) {}

	/** Forgets what was read from disk (a watched file changed). */
	reload(): void {
		this.disk = undefined;
		this.diskError = undefined;
		this.diskWarnings = [];
		this.lockText = undefined;
	}

	/** Whether `file` is one of this folder's: a set's template, a categories file or the lock. */
	owns(file: string): boolean {
		const rel = file.startsWith(`${this.root}/`) || file === this.root;
		return rel || this.categoryFiles().has(file);
	}

	/** Every set, each template's text the open document's when it is open. */
	sets(): Map<string, TemplateSetSource> {
		const disk = this.readDisk();
		const out = new Map<string, TemplateSetSource>();
		for (const [version, source] of disk) {
			const templates = new Map<string, { file: string; text: string }>();
			for (const [name, t] of source.templates)
				templates.set(name, { file: t.file, text: this.overlay.get(t.file) ?? t.text });
			for (const [file, text] of this.overlay) {
				// A new template, open before it is saved.
				if (dirname(file) === source.dir && file.endsWith(".hbs")) {
					const name = basename(file, ".hbs");
					if (!templates.has(name)) templates.set(name, { file, text });
				}
			}
			const categories = source.categories;
			const cats = {
				file: categories.file,
				text: this.overlay.get(categories.file) ?? categories.text,
			};
			out.set(version, { ...source, templates, categories: cats });
		}
		return out;
	}

	/** The error that keeps the folder from being read, if any. */
	error(): ContextError | undefined {
		this.readDisk();
		return this.diskError;
	}

	/** The warnings of reading the folder about `file`'s own folder (or a folder above it). */
	warningsFor(file: string): Diagnostic[] {
		this.readDisk();
		return this.diskWarnings
			.filter((d) => d.file !== undefined && file.startsWith(`${d.file}/`))
			.map((d) => ({ ...d, file, line: 1 }));
	}

	/** The set `file` is a template of, if any. */
	setOf(file: string): TemplateSetSource | undefined {
		for (const source of this.sets().values()) {
			if (dirname(file) === source.dir) return source;
		}
		return undefined;
	}

	/** The lock's path and text (the open document's when it is open), if there is one. */
	lock(): { file: string; text: string } | undefined {
		const file = join(this.root, LOCK_NAME);
		const open = this.overlay.get(file);
		if (open !== undefined) return { file, text: open };
		if (this.lockText === undefined)
			this.lockText = existsSync(file) ? readFileSync(file, "utf8") : null;
		return this.lockText === null ? undefined : { file, text: this.lockText };
	}

	private categoryFiles(): Set<string> {
		return new Set([...this.readDisk().values()].map((s) => s.categories.file));
	}

	private readDisk(): Map<string, TemplateSetSource> {
		if (this.disk !== undefined) return this.disk;
		try {
			this.disk = readTemplateSets(this.root, (d) => this.diskWarnings.push(d));
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			this.diskError = error;
			this.disk = new Map();
		}
		return this.disk;
	}
}

/**
 * Reading template sets from disk (the only file system access of the
 * templates stage). A templates folder holds one set per subfolder named
 * `v<N>` (`v1/`, `v2/`, …), or is itself one set; any other subfolder (a
 * `v2-wip/` draft, a backup) is not a set, and is reported, never taken as
 * the default. Templates are the `.hbs` files of the
 * set's own folder: regular files only, no symlinks, nothing oversized. A
 * set's `categories.yaml` is its own or, failing that, the one beside the
 * templates folder (the package's top-level one); a set that must stay
 * byte-stable while that file changes keeps its own copy.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextError, type Diagnostic } from "../errors.js";
import type { TemplateSetSource } from "./compile.js";

/** A template file larger than this is refused. */
export const MAX_TEMPLATE_BYTES = 256 * 1024;

/** The package's own root: `templates/` and `categories.yaml` live there. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");

/** The tool categories' file name, in a set's folder or shared beside the templates folder. */
export const CATEGORIES_FILE = "categories.yaml";

/** The names a set folder may have: `v` and a number. */
export const SET_FOLDER = /^v\d+$/;

/**
 * Every template set under `root`, by version, oldest first. Subfolders that
 * are not named `v<N>` are skipped, each reported to `warn`.
 */
export function readTemplateSets(
	root: string,
	warn: (d: Diagnostic) => void = () => {},
): Map<string, TemplateSetSource> {
	return new Map([...templateSets(root, warn)].map(([version, read]) => [version, read()]));
}

/**
 * {@link readTemplateSets}, each set read from disk only when its function
 * is called (every call reads it afresh): the folder is listed and checked
 * now, a set's templates when they are needed.
 */
export function templateSets(
	root: string,
	warn: (d: Diagnostic) => void = () => {},
): Map<string, () => TemplateSetSource> {
	const dir = resolve(root);
	if (!existsSync(dir)) throw new ContextError("io", "templates folder not found", { file: dir });
	if (!lstatSync(dir).isDirectory()) {
		throw new ContextError("io", "not a folder: a templates folder holds the sets (v1/, v2/, …)", {
			file: dir,
		});
	}
	const names = readdirSync(dir);
	const sets = new Map<string, () => TemplateSetSource>();
	if (names.some((n) => n.endsWith(".hbs"))) {
		// A set folder named directly: its categories are its own, its templates folder's, or the package's.
		sets.set(basename(dir), () => readSet(dir, [dirname(dir), dirname(dirname(dir))]));
		return sets;
	}
	for (const n of names) {
		if (!n.startsWith(".") && lstatSync(join(dir, n)).isSymbolicLink()) {
			throw new ContextError(
				"bad_template",
				"symbolic links are not followed in a templates folder",
				{
					file: join(dir, n),
				},
			);
		}
	}
	const folders = names.filter((n) => !n.startsWith(".") && lstatSync(join(dir, n)).isDirectory());
	for (const n of folders.filter((f) => !SET_FOLDER.test(f))) {
		warn({
			severity: "warning",
			code: "ignored_folder",
			message: `${n}/ is not a template set (set folders are named v1, v2, …): ignored`,
			file: join(dir, n),
		});
	}
	const versions = folders.filter((f) => SET_FOLDER.test(f)).sort(compareVersions);
	if (versions.length === 0) {
		throw new ContextError("io", "no template set here (expected v1/, v2/, … or .hbs files)", {
			file: dir,
		});
	}
	for (const version of versions)
		sets.set(version, () => readSet(join(dir, version), [dir, dirname(dir)], warn));
	return sets;
}

function readSet(
	dir: string,
	parents: readonly string[],
	warn: (d: Diagnostic) => void = () => {},
): TemplateSetSource {
	const templates = new Map<string, { file: string; text: string }>();
	for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
		const { name } = entry;
		if (entry.isDirectory() && !name.startsWith(".")) warn(nestedFolder(dir, name));
		if (!name.endsWith(".hbs")) continue;
		const file = join(dir, name);
		templates.set(name.slice(0, -4), { file, text: readRegularFile(file) });
	}
	const candidates = [dir, ...parents].map((d) => join(d, CATEGORIES_FILE));
	const categoriesFile = candidates.find((f) => existsSync(f));
	if (categoriesFile === undefined) {
		const looked = candidates.map((f) => dirname(f)).join(", ");
		throw new ContextError(
			"io",
			`no categories.yaml for this template set (looked in ${looked}): a set uses its own, or the one beside its templates folder; a copy of a templates folder needs that file too (the package's is ${join(PACKAGE_ROOT, CATEGORIES_FILE)})`,
			{ file: dir },
		);
	}
	return {
		version: basename(dir),
		dir,
		templates,
		categories: { file: categoriesFile, text: readRegularFile(categoriesFile) },
	};
}

const byName = (a: { name: string }, b: { name: string }) =>
	a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * A folder inside a set is none of its templates: a set folder or one of
 * templates (what `cp -r templates/v1 templates/v2` makes when `v2/` exists)
 * is an error, so the build refuses it; any other a warning.
 */
function nestedFolder(set: string, name: string): Diagnostic {
	const folder = join(set, name);
	let holdsTemplates = false;
	try {
		holdsTemplates = readdirSync(folder).some((n) => n.endsWith(".hbs"));
	} catch {
		// unreadable: said as a folder that is not a set's
	}
	const templatesDir = dirname(set);
	if (SET_FOLDER.test(name) || holdsTemplates) {
		return {
			severity: "error",
			code: "bad_template",
			message: `${name}/ is a set folder inside set ${basename(set)}: its templates are not part of any set (a copy made with cp -r onto a set that already existed?); make a new set with theway-context new-set --templates ${templatesDir}, or move ${name}/ up to ${join(templatesDir, name)}`,
			file: folder,
		};
	}
	return {
		severity: "warning",
		code: "ignored_folder",
		message: `${name}/ inside set ${basename(set)} holds no templates: ignored`,
		file: folder,
	};
}

function readRegularFile(file: string): string {
	const stat = lstatSync(file);
	if (stat.isSymbolicLink()) {
		throw new ContextError("bad_template", "symbolic links are not followed in a template set", {
			file,
		});
	}
	if (!stat.isFile()) throw new ContextError("bad_template", "not a regular file", { file });
	if (stat.size > MAX_TEMPLATE_BYTES) {
		throw new ContextError(
			"bad_template",
			`file is ${stat.size} bytes; templates are limited to ${MAX_TEMPLATE_BYTES}`,
			{ file },
		);
	}
	return readFileSync(file, "utf8");
}

/**
 * `v2` before `v10`: digit runs compare as numbers, the rest by code unit.
 * (Not `localeCompare`: its first call loads a collator, milliseconds of a
 * cold start.)
 */
export function compareVersions(a: string, b: string): number {
	const pa = a.match(RUNS) ?? [];
	const pb = b.match(RUNS) ?? [];
	for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
		const [x, y] = [pa[i] as string, pb[i] as string];
		if (x === y) continue;
		const [dx, dy] = [DIGITS.test(x), DIGITS.test(y)];
		if (dx && dy) {
			const [nx, ny] = [x.replace(ZEROS, ""), y.replace(ZEROS, "")];
			if (nx.length !== ny.length) return nx.length - ny.length;
			if (nx !== ny) return nx < ny ? -1 : 1;
			return x.length - y.length;
		}
		return x < y ? -1 : 1;
	}
	return pa.length - pb.length;
}

const RUNS = /\d+|\D+/g;
const DIGITS = /^\d/;
const ZEROS = /^0+/;

/**
 * What the corpus commands (`diff`, `replay`) share: the session files a
 * path names, a side named by a set, a folder or a git revision, its
 * template set built once before any session is read, and paths shown
 * relative to the working directory.
 */
import { existsSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { ContextError } from "../errors.js";
import { findSessionLogs } from "../log/files.js";
import { TemplateRegistry } from "../templates/registry.js";
import { escapeControl } from "../text/terminal.js";
import { checkSetOption } from "./io.js";
import { atRevision, type RevisionFolder, templatesAtRevision } from "./revision.js";
import { usageError } from "./usage.js";

/** A side of a comparison: a templates folder, a set of it, and how the reports name it. */
export interface NamedSide {
	templates: string;
	/** Render with this set; undefined: the set the session pins, else the folder's newest. */
	version?: string;
	/** How the reports name the side when it is not a set's name (a folder, a revision). */
	label?: string;
}

/**
 * The side `arg` (given as `option`) names: a set of `templates` (`v2`), a
 * templates folder, else a git revision (`HEAD`, `main:templates`), whose
 * templates folder is read into a temporary folder and pushed on `taken`
 * for the caller to remove (the side holds no function: it goes to worker
 * threads as it is). Without `taken`, a name that is neither a set
 * nor a folder is taken as a set's (checked when the set is built).
 */
export function sideOf(
	option: string,
	arg: string,
	templates: string,
	cwd: string,
	taken?: RevisionFolder[],
): NamedSide {
	const path = resolve(cwd, arg);
	if (/^v\d+$/.test(arg)) return { templates, version: arg };
	if (isDirectory(path)) return { templates: path, label: arg };
	if (arg.startsWith(".") || arg.startsWith("/") || (taken === undefined && arg.includes("/"))) {
		throw usageError(`${option} ${path}: no such templates folder`);
	}
	if (taken === undefined) return { templates, version: arg };
	const revision = templatesAtRevision(arg, templates, cwd, option);
	taken.push(revision);
	return { templates: revision.templates, label: arg };
}

/**
 * The set a side names (or its folder's newest) built once here: a broken
 * one stops the command with its error, before any session is read, instead
 * of failing every session alike. (A session may still pin another set.)
 */
export async function checkSide(
	side: { templates: string; version?: string },
	option: string,
): Promise<void> {
	const registry = new TemplateRegistry(side.templates);
	checkSetOption(registry, side.version, option);
	await registry.ready();
	registry.get(side.version);
}

/**
 * {@link checkSide} for a side that may have been read from a revision into
 * one of `taken`: its set's error is located at the revision's paths
 * (`HEAD~3:templates/v2/tools.hbs:2:1`), not the temporary folder's.
 */
export async function checkRevisionSide(
	side: { templates: string; version?: string },
	option: string,
	taken: readonly RevisionFolder[],
): Promise<void> {
	try {
		await checkSide(side, option);
	} catch (error) {
		const revision = taken.find((t) => t.templates === side.templates);
		if (revision === undefined || !(error instanceof ContextError)) throw error;
		throw atRevision(error, revision);
	}
}

/** A session file, or every `.jsonl` under a folder (sorted). */
export function sessionFiles(path: string): string[] {
	if (!existsSync(path)) throw new ContextError("io", "no such file or folder", { file: path });
	if (!isDirectory(path)) return [path];
	const out = findSessionLogs(path);
	if (out.length === 0)
		throw new ContextError("io", "no .jsonl session in this folder", { file: path });
	return out;
}

/** The session files the command's arguments name, each once (a file also inside a folder given). */
export function corpusFiles(positionals: readonly string[], cwd: string): string[] {
	if (positionals.includes("-"))
		throw usageError("- (standard input) is no session file here: give files or folders");
	const paths = positionals.map((p) => resolve(cwd, p));
	// A path that is not there, beside others that are, is a session the command cannot read:
	// it goes on past it, says so and exits 1, as for any other such session. Only when none is there does it stop here.
	if (paths.some((p) => existsSync(p)))
		return [...new Set(paths.flatMap((p) => (existsSync(p) ? sessionFiles(p) : [p])))];
	return [...new Set(paths.flatMap(sessionFiles))];
}

export function isDirectory(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * A corpus result shown from `cwd`: its file as {@link displayPath}, and so
 * is the path its error is located in, when that is its file.
 */
export function showResult(result: { file: string; error?: string }, cwd: string): void {
	const shown = displayPath(result.file, cwd);
	if (result.error?.startsWith(`${result.file}:`))
		result.error = `${shown}${result.error.slice(result.file.length)}`;
	result.file = shown;
}

/** Paths under the working directory are shown relative to it. */
export function displayPath(file: string, cwd: string): string {
	const rel = relative(cwd, file);
	return escapeControl(rel.startsWith("..") ? file : rel);
}

/**
 * The build step's findings for one set, as the editor shows them: the same
 * checks (`checkTemplateSet` for front-matter, section order and types,
 * `checkLock` for versions) run on the unsaved texts, remembered by the
 * set's content so that an unchanged set is never checked twice, and
 * converted to LSP diagnostics ranged over the token each one points at.
 */
import { createHash } from "node:crypto";
import Handlebars from "handlebars";
import {
	DiagnosticSeverity,
	type Diagnostic as LspDiagnostic,
	type Range,
} from "vscode-languageserver";
import { ContextError, type Diagnostic } from "../errors.js";
import { checkLock, type Lock, type LockInput, LockSchema } from "../rules/lock.js";
import {
	checkTemplateSet,
	fingerprintOf,
	type Parsers,
	readCategories,
	type TemplateSetSource,
} from "../templates/compile.js";
import type { TemplateFile } from "../templates/front-matter.js";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import type { Categories } from "../view/categories.js";
import { parseCached } from "./workspace.js";

/** What the diagnostics say they come from. */
export const SOURCE = "theway-context";

const checked = new Map<string, Diagnostic[]>();

/** Every finding of `checkTemplateSet` on `source`, from a cache keyed by the set's content. */
export function checkSet(
	source: TemplateSetSource,
	fingerprint = fingerprintOf(source),
): Diagnostic[] {
	const key = `${source.dir}\0${fingerprint}`;
	const cached = checked.get(key);
	if (cached !== undefined) return cached;
	let found: Diagnostic[] = [];
	try {
		checkTemplateSet(source, PARSERS);
	} catch (error) {
		if (!(error instanceof ContextError)) throw error;
		found = error.diagnostics.length > 0 ? [...error.diagnostics] : [error.toDiagnostic()];
	}
	if (checked.size > 200) checked.clear();
	checked.set(key, found);
	return found;
}

/** {@link parseCached} as the build step's parse: the file, or its error thrown. */
function parseOrThrow(text: string, file: string, name: string): TemplateFile {
	const parsed = parseCached(text, file, name);
	if (!parsed.ok) throw parsed.error;
	return parsed.file;
}

const locks = new Map<string, Lock | ContextError>();

/** The lock file's text parsed and validated as the build step does, remembered by text. */
function parseLock(lock: { file: string; text: string }): Lock | ContextError {
	const key = `${lock.file}\0${lock.text}`;
	let parsed = locks.get(key);
	if (parsed === undefined) {
		try {
			const data = parseYaml(lock.text, lock.file, "bad_template");
			parsed = validateYaml(LockSchema, data, lock.file, "bad_template", "lock file");
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			parsed = error;
		}
		if (locks.size > 20) locks.clear();
		locks.set(key, parsed);
	}
	return parsed;
}

/** A parser that remembers each body's tree (or its parse error), for one reader of the trees. */
function remembering(): (body: string) => hbs.AST.Program {
	const trees = new Map<string, hbs.AST.Program | { error: unknown }>();
	return (body) => {
		let tree = trees.get(body);
		if (tree === undefined) {
			try {
				tree = Handlebars.parse(body);
			} catch (error) {
				tree = { error };
			}
			if (trees.size > 500) trees.clear();
			trees.set(body, tree);
		}
		if ("error" in tree) throw tree.error;
		return tree;
	};
}

const categoryFiles = new Map<string, Categories | ContextError>();

/** {@link readCategories}, remembered by file and text. */
function categoriesOf(text: string, file: string): Categories {
	const key = `${file}\0${text}`;
	let read = categoryFiles.get(key);
	if (read === undefined) {
		try {
			read = readCategories(text, file);
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			read = error;
		}
		if (categoryFiles.size > 20) categoryFiles.clear();
		categoryFiles.set(key, read);
	}
	if (read instanceof ContextError) throw read;
	return read;
}

/** The build step's check, each unchanged file and body parsed once (one cache per reader). */
const PARSERS: Parsers = {
	file: parseOrThrow,
	typecheck: remembering(),
	skeleton: remembering(),
	categories: categoriesOf,
};

/** A set as the lock sees it (as the build step reads it), from the parse cache. */
export function lockInputOf(source: TemplateSetSource, fingerprint: string): LockInput {
	const templateVersions: Record<string, string> = {};
	for (const [name, { file, text }] of source.templates) {
		const parsed = parseCached(text, file);
		if (parsed.ok) templateVersions[name] = parsed.file.meta.version;
	}
	return { source, fingerprint, templateVersions };
}

/**
 * The lock's findings for `inputs`: a version not bumped is an error, as in
 * `build`; a stale lock is a warning on the lock file (`build` fails on it
 * until `build --update` rewrites the lock, which an editor never does).
 */
export function checkVersions(
	lock: { file: string; text: string } | undefined,
	inputs: readonly LockInput[],
	lockFile: string,
): Diagnostic[] {
	const parsed = lock === undefined ? undefined : parseLock(lock);
	if (parsed instanceof ContextError) return [parsed.toDiagnostic()];
	return checkLock(parsed, inputs, lockFile).map((d) =>
		d.severity === "error"
			? d
			: { ...d, message: `lock is out of date: ${d.message} (run build --update)` },
	);
}

/** A short content key (for caches keyed by text). */
export function keyOf(...texts: string[]): string {
	const hash = createHash("sha1");
	for (const t of texts) hash.update(t).update("\0");
	return hash.digest("hex");
}

/** `d` as the editor shows it, ranged over the token at its line and column in `text`. */
export function toLsp(d: Diagnostic, text: string | undefined): LspDiagnostic {
	const out: LspDiagnostic = {
		range: rangeOf(text ?? "", d.line, d.column),
		severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
		code: d.code,
		source: SOURCE,
		message: d.message,
	};
	return out;
}

/** A word-like run of a path, a helper or a key, for ranges and hovers. */
const TOKEN = /[^\s{}()"'=|~]+/y;

/**
 * The range a located finding covers: from its 1-based line and column to
 * the end of the token there; the whole line when no column is known.
 */
export function rangeOf(text: string, line = 1, column?: number): Range {
	const lines = text.split("\n");
	const l = Math.min(Math.max(line - 1, 0), Math.max(lines.length - 1, 0));
	const content = (lines[l] ?? "").replace(/\r$/, "");
	if (column === undefined)
		return { start: { line: l, character: 0 }, end: { line: l, character: content.length } };
	const start = Math.min(Math.max(column - 1, 0), content.length);
	const close = content.startsWith("{{", start) ? content.indexOf("}}", start) : -1;
	if (close !== -1) {
		// A finding at a whole statement (a partial call, a block): the mustache.
		return { start: { line: l, character: start }, end: { line: l, character: close + 2 } };
	}
	TOKEN.lastIndex = start;
	const m = TOKEN.exec(content);
	const end = m === null ? Math.min(start + 1, content.length) : start + m[0].length;
	return {
		start: { line: l, character: start },
		end: { line: l, character: end === start ? content.length : end },
	};
}

/**
 * Compiling a template set: every file's front-matter validated, the required
 * templates present, the skeleton's section order proved, every path, helper
 * and partial type-checked against the view-models, then each template
 * compiled once on a private Handlebars instance. Pure: sources in, a
 * {@link TemplateSet} out, or one {@link ContextError} listing every problem.
 */
import { join } from "node:path";
import Handlebars from "handlebars";
import type { z } from "zod";
import { ContextError, type Diagnostic } from "../errors.js";
import { type Categories, CategoriesSchema } from "../view/categories.js";
import {
	OPTIONAL_ROOT_VIEWS,
	REQUIRED_TEMPLATES,
	ROOT_TEMPLATES,
	ROOT_VIEWS,
} from "../view/schema.js";
import type { SummaryCaps } from "../view/summary.js";
import { parseTemplateFile, type TemplateFile } from "./front-matter.js";
import { HELPER_SIGNATURES, KNOWN_HELPERS } from "./helpers.js";
import {
	assembleSet,
	fingerprintOf,
	type SetMeta,
	STUB,
	type TemplateSet,
	type TemplateSetSource,
	textsOf,
} from "./set.js";
import { checkSkeleton } from "./skeleton.js";
import { typecheckTemplates } from "./typecheck.js";
import { parseYaml, validateYaml } from "./yaml.js";

export {
	assembleSet,
	endingLine,
	fingerprintOf,
	lineEnded,
	type Render,
	type SetMeta,
	type TemplateSet,
	type TemplateSetSource,
} from "./set.js";

export const COMPILE_OPTIONS = {
	noEscape: true,
	strict: true,
	knownHelpersOnly: true,
	knownHelpers: KNOWN_HELPERS,
} as const;

/**
 * How a check reads a set: an editor passes parsers that remember what did
 * not change since its last keystroke. Each must answer as the default does.
 */
export interface Parsers {
	/** One file's front-matter and body, its `name:` checked against `name` (default: {@link parseTemplateFile}). */
	file?: (text: string, file: string, name: string) => TemplateFile;
	/** A body's tree for the type check, which may rewrite it (idempotently: a tree may be reused). */
	typecheck?: ((body: string) => hbs.AST.Program) | undefined;
	/** A body's tree for the section order, which only reads it. */
	skeleton?: ((body: string) => hbs.AST.Program) | undefined;
	/** The categories file, validated (default: {@link readCategories}). */
	categories?: (text: string, file: string) => Categories;
}

/** `categories.yaml`'s text parsed and validated; throws its located error. */
export function readCategories(text: string, file: string): Categories {
	return validateYaml(
		CategoriesSchema,
		parseYaml(text, file, "bad_categories"),
		file,
		"bad_categories",
		"categories",
	);
}

/** Parses and checks a set's files; throws one error with every finding. */
export function checkTemplateSet(
	source: TemplateSetSource,
	parsers: Parsers = {},
): {
	files: Map<string, TemplateFile>;
	categories: Categories;
} {
	const diagnostics: Diagnostic[] = [];
	const collect = (fn: () => void) => {
		try {
			fn();
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			diagnostics.push(
				...(error.diagnostics.length > 0 ? error.diagnostics : [error.toDiagnostic()]),
			);
		}
	};
	const files = new Map<string, TemplateFile>();
	for (const [name, { file, text }] of source.templates) {
		collect(() => {
			files.set(name, (parsers.file ?? parseTemplateFile)(text, file, name));
		});
	}
	for (const name of REQUIRED_TEMPLATES) {
		if (!source.templates.has(name)) {
			diagnostics.push({
				severity: "error",
				code: "bad_template",
				message: `the template set ${source.version} has no ${name}.hbs`,
				file: join(source.dir, `${name}.hbs`),
			});
		}
	}
	const collapse = files.get("collapse-context");
	if (collapse !== undefined && collapse.meta.caps === undefined) {
		diagnostics.push({
			severity: "error",
			code: "bad_front_matter",
			message:
				"collapse-context needs caps: a character cap for each of the five summary components",
			file: collapse.file,
			line: 2,
		});
	}
	diagnostics.push(...checkPolicy(files));
	for (const t of files.values()) {
		if (t.meta.marker !== undefined && !t.body.startsWith(t.meta.marker)) {
			diagnostics.push({
				severity: "error",
				code: "bad_template",
				message: `the body must start with its marker ${JSON.stringify(t.meta.marker)}`,
				file: t.file,
				line: t.bodyLine,
				column: 1,
			});
		}
	}
	let categories: Categories = { other: "Other", categories: [] };
	collect(() => {
		const { file, text } = source.categories;
		categories = (parsers.categories ?? readCategories)(text, file);
	});
	const skeleton = files.get("system");
	if (skeleton !== undefined) diagnostics.push(...checkSkeleton(skeleton, files, parsers.skeleton));
	const roots = new Map<string, z.ZodType>();
	for (const name of ROOT_TEMPLATES) roots.set(name, ROOT_VIEWS[name]);
	for (const [name, schema] of Object.entries(OPTIONAL_ROOT_VIEWS)) {
		if (files.has(name)) roots.set(name, schema);
	}
	diagnostics.push(
		...typecheckTemplates({
			templates: [...files.entries()].map(([name, t]) => ({
				name,
				file: t.file,
				body: t.body,
				bodyLine: t.bodyLine,
				fileText: t.text,
			})),
			roots,
			helpers: HELPER_SIGNATURES,
			parse: parsers.typecheck,
			unreadable: new Set([...source.templates.keys()].filter((name) => !files.has(name))),
		}),
	);
	if (diagnostics.length > 0) throw setError(source.version, diagnostics);
	return { files, categories };
}

/** The plain data of a checked set. */
export function metaOf(
	source: TemplateSetSource,
	files: ReadonlyMap<string, TemplateFile>,
	categories: Categories,
): SetMeta {
	const templateVersions: Record<string, string> = {};
	const markers: string[] = [];
	const policy = files.get(STUB)?.meta.virtualize;
	for (const [name, t] of files) {
		templateVersions[name] = t.meta.version;
		if (t.meta.marker !== undefined) markers.push(t.meta.marker);
	}
	return {
		version: source.version,
		fingerprint: fingerprintOf(source),
		templateVersions,
		caps: files.get("collapse-context")?.meta.caps as SummaryCaps,
		markers,
		categories,
		...(policy === undefined ? {} : { virtualize: policy }),
	};
}

/**
 * Whether template `name` may declare front-matter `key`: every key of the
 * schema but the virtualization policy, which belongs to the stub it
 * configures. The build refuses what this refuses; the editor offers what it allows.
 */
export function mayDeclare(name: string, key: string): boolean {
	return key !== "virtualize" || name === STUB;
}

/** The virtualization policy belongs to the stub template, and the stub needs one. */
function checkPolicy(files: ReadonlyMap<string, TemplateFile>): Diagnostic[] {
	const out: Diagnostic[] = [];
	for (const [name, t] of files) {
		const has = t.meta.virtualize !== undefined;
		if (has ? mayDeclare(name, "virtualize") : name !== STUB) continue;
		out.push({
			severity: "error",
			code: "bad_front_matter",
			message: has
				? `virtualize: belongs to ${STUB}.hbs only (the stub it configures)`
				: `${STUB} needs virtualize: the threshold and excerpts of the stub it renders`,
			file: t.file,
			...(has ? t.locate(["virtualize"], "key") : { line: 2 }),
		});
	}
	return out;
}

/** Checks and compiles a set. Each template is compiled exactly once. */
export function compileTemplateSet(source: TemplateSetSource): TemplateSet {
	const { files, categories } = checkTemplateSet(source);
	const hb = Handlebars.create();
	const compiled = new Map<string, Handlebars.TemplateDelegate>();
	for (const [name, t] of files) compiled.set(name, hb.compile(t.body, COMPILE_OPTIONS));
	return assembleSet(metaOf(source, files, categories), hb, compiled);
}

/**
 * Checks `source` and returns the text of its precompiled module: the set's
 * plain data, per template the code Handlebars' `precompile` produced, and
 * the texts it was built from (loaded by `precompiled.ts` with the
 * Handlebars runtime alone, if the sources still hold those texts).
 */
export function precompileTemplateSet(source: TemplateSetSource): string {
	const { files, categories } = checkTemplateSet(source);
	const meta = metaOf(source, files, categories);
	const specs = [...files].map(
		([name, t]) => `\t${JSON.stringify(name)}: ${Handlebars.precompile(t.body, COMPILE_OPTIONS)},`,
	);
	return [
		"// Generated by `theway-context build` from the template set's sources. Do not edit.",
		'"use strict";',
		`exports.meta = ${JSON.stringify(meta)};`,
		"exports.templates = {",
		...specs,
		"};",
		`exports.sources = ${JSON.stringify(textsOf(source))};`,
		"",
	].join("\n");
}

function setError(version: string, found: Diagnostic[]): ContextError {
	// Within a file, in line order: a cause (a misspelt partial) before what it breaks further
	// down (the section order); the files in the order their first finding came.
	const files = [...new Set(found.map((d) => d.file ?? ""))];
	const rank = (d: Diagnostic) => files.indexOf(d.file ?? "");
	const diagnostics = [...found].sort(
		(a, b) =>
			rank(a) - rank(b) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
	);
	const first = diagnostics[0] as Diagnostic;
	const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : "";
	return new ContextError(
		first.code as ContextError["code"],
		`template set ${version}: ${first.message}${more}`,
		first,
		{ diagnostics },
	);
}

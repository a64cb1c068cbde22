/**
 * Compiling a template set: every file's front-matter validated, the required
 * templates present, the skeleton's section order proved, every path, helper
 * and partial type-checked against the view-models, then each template
 * compiled once on a private Handlebars instance. Pure: sources in, a
 * {@link TemplateSet} out, or one {@link ContextError} listing every problem.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import Handlebars from "handlebars";
import type { z } from "zod";
import { ContextError, type Diagnostic } from "../errors.js";
import {
	type Categories,
	CategoriesSchema,
	type Categorizer,
	compileCategories,
} from "../view/categories.js";
import {
	REQUIRED_TEMPLATES,
	ROOT_TEMPLATES,
	ROOT_VIEWS,
	type RootTemplate,
} from "../view/schema.js";
import type { SummaryCaps } from "../view/summary.js";
import { parseTemplateFile, type TemplateFile } from "./front-matter.js";
import { HELPER_SIGNATURES, HELPERS, KNOWN_HELPERS } from "./helpers.js";
import { checkSkeleton } from "./skeleton.js";
import { typecheckTemplates } from "./typecheck.js";
import { parseYaml, validateYaml } from "./yaml.js";

/** A template set as read from disk: file names and texts. */
export interface TemplateSetSource {
	/** The set's version: the name of its folder (`v1`). */
	version: string;
	/** The set's folder. */
	dir: string;
	/** Template files by name (the file name without `.hbs`). */
	templates: ReadonlyMap<string, { file: string; text: string }>;
	categories: { file: string; text: string };
}

/** A compiled template function: a view in, text out. */
export type Render<V> = (view: V) => string;
type ViewOf<N extends RootTemplate> = z.infer<(typeof ROOT_VIEWS)[N]>;

/** A compiled, checked template set, ready to render. */
export interface TemplateSet {
	version: string;
	/** SHA-256 over every template and the categories, in a fixed order. */
	fingerprint: string;
	/** Each template's own front-matter version. */
	templateVersions: Readonly<Record<string, string>>;
	caps: SummaryCaps;
	/** Framing markers that session text may never reproduce. */
	markers: readonly string[];
	categorizer: Categorizer;
	render: { [N in RootTemplate]: Render<ViewOf<N>> };
}

export const COMPILE_OPTIONS = {
	noEscape: true,
	strict: true,
	knownHelpersOnly: true,
	knownHelpers: KNOWN_HELPERS,
} as const;

/** Parses and checks a set's files; throws one error with every finding. */
export function checkTemplateSet(source: TemplateSetSource): {
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
			const parsed = parseTemplateFile(text, file);
			if (parsed.meta.name !== name) {
				throw new ContextError(
					"bad_front_matter",
					`front-matter name ${JSON.stringify(parsed.meta.name)} does not match the file name ${JSON.stringify(name)}`,
					{ file, line: 2, column: 1 },
				);
			}
			files.set(name, parsed);
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
		categories = validateYaml(
			CategoriesSchema,
			parseYaml(text, file, "bad_categories"),
			file,
			"bad_categories",
			"categories",
		);
	});
	const skeleton = files.get("system");
	if (skeleton !== undefined) diagnostics.push(...checkSkeleton(skeleton, files));
	const roots = new Map<string, z.ZodType>();
	for (const name of ROOT_TEMPLATES) roots.set(name, ROOT_VIEWS[name]);
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
		}),
	);
	if (diagnostics.length > 0) throw setError(source.version, diagnostics);
	return { files, categories };
}

/** What a compiled set needs besides its template functions: all plain data. */
export interface SetMeta {
	version: string;
	fingerprint: string;
	templateVersions: Record<string, string>;
	caps: SummaryCaps;
	markers: string[];
	categories: Categories;
}

/** The plain data of a checked set. */
export function metaOf(
	source: TemplateSetSource,
	files: ReadonlyMap<string, TemplateFile>,
	categories: Categories,
): SetMeta {
	const templateVersions: Record<string, string> = {};
	const markers: string[] = [];
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
	};
}

/** How many sets were compiled from source in this process (the precompiled path adds none). */
export let compileCount = 0;

/** Checks and compiles a set. Each template is compiled exactly once. */
export function compileTemplateSet(source: TemplateSetSource): TemplateSet {
	const { files, categories } = checkTemplateSet(source);
	const hb = Handlebars.create();
	const compiled = new Map<string, Handlebars.TemplateDelegate>();
	for (const [name, t] of files) compiled.set(name, hb.compile(t.body, COMPILE_OPTIONS));
	compileCount++;
	return assembleSet(metaOf(source, files, categories), hb, compiled);
}

/**
 * Builds the {@link TemplateSet} around compiled (or precompiled) template
 * functions, on their private Handlebars environment: our helpers and
 * nothing else, every template a partial of the others.
 */
export function assembleSet(
	meta: SetMeta,
	env: typeof Handlebars,
	fns: ReadonlyMap<string, Handlebars.TemplateDelegate>,
): TemplateSet {
	env.unregisterHelper("log");
	env.unregisterHelper("lookup");
	for (const [name, helper] of Object.entries(HELPERS)) env.registerHelper(name, helper.fn);
	for (const [name, fn] of fns) env.registerPartial(name, fn);
	const render = {} as Record<RootTemplate, Render<unknown>>;
	for (const name of ROOT_TEMPLATES) {
		const fn = fns.get(name) as Handlebars.TemplateDelegate;
		render[name] = (view) => trimTrailingNewlines(fn(view));
	}
	return {
		version: meta.version,
		fingerprint: meta.fingerprint,
		templateVersions: meta.templateVersions,
		caps: meta.caps,
		markers: meta.markers,
		categorizer: compileCategories(meta.categories),
		render: render as TemplateSet["render"],
	};
}

/** SHA-256 over the set's files, sorted by name, and its categories. */
export function fingerprintOf(source: TemplateSetSource): string {
	const hash = createHash("sha256");
	for (const name of [...source.templates.keys()].sort()) {
		hash.update(`${name}\0${source.templates.get(name)?.text}\0`);
	}
	hash.update(`categories\0${source.categories.text}`);
	return hash.digest("hex");
}

function trimTrailingNewlines(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
	return end === text.length ? text : text.slice(0, end);
}

function setError(version: string, diagnostics: Diagnostic[]): ContextError {
	const first = diagnostics[0] as Diagnostic;
	const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : "";
	return new ContextError(
		first.code as ContextError["code"],
		`template set ${version}: ${first.message}${more}`,
		first,
		{ diagnostics },
	);
}

/**
 * A compiled template set as the render path sees it: plain data and one
 * render function per root template. Nothing here parses or checks a
 * template, so loading a precompiled set needs neither the Handlebars
 * compiler nor the schemas (`compile.ts` does that work, when a set must be
 * compiled from its sources).
 */
import type * as Crypto from "node:crypto";
import { createRequire } from "node:module";
import type Handlebars from "handlebars";
import type { z } from "zod";
import { type CategoriesData, type Categorizer, compileCategories } from "../view/categorizer.js";
import { ROOT_TEMPLATES, type RootTemplate, SECTIONS } from "../view/constants.js";
import type { ROOT_VIEWS } from "../view/schema.js";
import type { ToolResultStubView, VirtualizePolicy } from "../view/stub.js";
import type { SummaryCaps } from "../view/summary.js";
import { HELPERS } from "./helpers.js";

/** The template a tool result over the threshold is rendered with. */
export const STUB = "tool-result-stub";

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
	/** When tool results become stubs; undefined: the set does not virtualize. */
	virtualize?: VirtualizePolicy;
	render: { [N in RootTemplate]: Render<ViewOf<N>> } & {
		/** Present exactly when `virtualize` is. */
		"tool-result-stub"?: Render<ToolResultStubView>;
	};
}

/** What a compiled set needs besides its template functions: all plain data. */
export interface SetMeta {
	version: string;
	fingerprint: string;
	templateVersions: Record<string, string>;
	caps: SummaryCaps;
	markers: string[];
	categories: CategoriesData;
	/** The `virtualize` front-matter of `tool-result-stub`, when the set has it. */
	virtualize?: VirtualizePolicy;
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
	for (const [name, fn] of fns) {
		const section = (SECTIONS as readonly string[]).includes(name);
		env.registerPartial(name, section && !(LINE_ENDED in fn) ? endingLine(fn) : fn);
	}
	const render = {} as Record<string, Render<unknown>>;
	const stub = meta.virtualize === undefined ? [] : [STUB];
	for (const name of [...ROOT_TEMPLATES, ...stub]) {
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
		...(meta.virtualize === undefined ? {} : { virtualize: meta.virtualize }),
		render: render as TemplateSet["render"],
	};
}

/** The texts a set was compiled from, as its precompiled module records them. */
export interface SetTexts {
	templates: Record<string, string>;
	categories: string;
}

/** The texts of `source`, to record beside what was compiled from them. */
export function textsOf(source: TemplateSetSource): SetTexts {
	const templates: Record<string, string> = {};
	for (const [name, t] of source.templates) templates[name] = t.text;
	return { templates, categories: source.categories.text };
}

/**
 * Whether `source` holds exactly the recorded texts: the same template names,
 * each with the same text, and the same categories. Exact, and cheaper than
 * hashing them (no hash module to load on the render path).
 */
export function hasTexts(source: TemplateSetSource, texts: SetTexts): boolean {
	if (texts.categories !== source.categories.text) return false;
	const names = Object.keys(texts.templates);
	if (names.length !== source.templates.size) return false;
	return names.every((name) => source.templates.get(name)?.text === texts.templates[name]);
}

const require = createRequire(import.meta.url);

/** SHA-256 over the set's files, sorted by name, and its categories. */
export function fingerprintOf(source: TemplateSetSource): string {
	// Loaded here, not above: the render path of a precompiled set never hashes.
	const { createHash } = require("node:crypto") as typeof Crypto;
	const hash = createHash("sha256");
	for (const name of [...source.templates.keys()].sort()) {
		hash.update(`${name}\0${source.templates.get(name)?.text}\0`);
	}
	hash.update(`categories\0${source.categories.text}`);
	return hash.digest("hex");
}

/**
 * A section's partial whose output, when not empty, ends with a newline.
 * The skeleton calls it alone on its line between the section's tags, and
 * Handlebars drops such a line's newline (a standalone partial), so a text
 * whose last line has none ("Standalone Without Newline" in Mustache's
 * spec: the section's own text, or a partial it calls last) would put the
 * closing tag at the end of that line.
 */
export function endingLine(
	fn: Handlebars.TemplateDelegate,
	/** Marks at the end of the output that are not text (the measuring's sentinels). */
	marks?: RegExp,
): Handlebars.TemplateDelegate {
	return lineEnded((context, options) => {
		const out = fn(context, options);
		const text = marks === undefined ? out : out.replace(marks, "");
		return text === "" || text.endsWith("\n") ? out : `${out}\n`;
	});
}

/** Marks a section's partial that already ends its output as {@link endingLine} does. */
const LINE_ENDED = Symbol("line ended");

/**
 * `fn`, marked as a section partial whose output already ends its line (one
 * that wraps {@link endingLine}'s output in something of its own, as the
 * measuring's sentinels do): {@link assembleSet} wraps it no further.
 */
export function lineEnded(fn: Handlebars.TemplateDelegate): Handlebars.TemplateDelegate {
	return Object.assign(fn, { [LINE_ENDED]: true });
}

function trimTrailingNewlines(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
	return end === text.length ? text : text.slice(0, end);
}

/**
 * Loading precompiled template sets. The build checks a set and writes it as
 * one CommonJS module (`precompileTemplateSet` in `compile.ts`): the set's
 * plain data and, per template, the code Handlebars' `precompile` produced.
 * This module loads it with the Handlebars *runtime* only, which has no
 * compiler: nothing is compiled, parsed or validated on the render path. A
 * module built from other texts than the sources hold now is ignored: it
 * records the texts it was built from, compared as they are (a module that
 * records none is compared by fingerprint, which needs a hash).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type Handlebars from "handlebars";
import {
	assembleSet,
	fingerprintOf,
	hasTexts,
	type SetMeta,
	type SetTexts,
	type TemplateSet,
	type TemplateSetSource,
} from "./set.js";

const require = createRequire(import.meta.url);
let runtime: typeof Handlebars | undefined;

/** The folder, beside the sets, that holds their precompiled modules. */
export const PRECOMPILED_DIR = ".compiled";

/** Where the precompiled module of set `version` under `root` lives. */
export function precompiledPath(root: string, version: string): string {
	return join(root, PRECOMPILED_DIR, `${version}.cjs`);
}

/** What a precompiled module exports. */
export interface PrecompiledSet {
	meta: SetMeta;
	templates: Record<string, Parameters<typeof Handlebars.template>[0]>;
	/** The texts the set was built from (absent in a module of an earlier build). */
	sources?: SetTexts;
}

/**
 * The precompiled set at `path`, if there is one and it was built from
 * exactly these sources; otherwise undefined.
 */
export function loadPrecompiled(path: string, source: TemplateSetSource): TemplateSet | undefined {
	let module: PrecompiledSet;
	try {
		delete require.cache[path]; // a rebuilt module must be read again
		module = require(path) as PrecompiledSet;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return undefined;
		throw error;
	}
	const fresh =
		module.sources === undefined
			? module.meta?.fingerprint === fingerprintOf(source)
			: hasTexts(source, module.sources);
	if (!fresh) return undefined;
	runtime ??= require("handlebars/dist/handlebars.runtime.js") as typeof Handlebars;
	const env = runtime.create();
	const fns = new Map<string, Handlebars.TemplateDelegate>();
	for (const [name, spec] of Object.entries(module.templates)) fns.set(name, env.template(spec));
	return assembleSet(module.meta, env, fns);
}

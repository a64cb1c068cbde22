/** The static type checker under test: a root template checked against SystemViewSchema. */

import { compileTemplateSet } from "../../src/templates/compile.js";
import type { Compiler } from "../../src/templates/registry.js";
import type { TemplateSetSource } from "../../src/templates/set.js";
import {
	type HelperSignature,
	type TemplateSource,
	typecheckTemplates,
} from "../../src/templates/typecheck.js";
import { SystemViewSchema } from "../../src/view/schema.js";

export const helpers: Record<string, HelperSignature> = {
	join: { params: ["array", "string"], optionalParams: 1, returns: "string" },
	upper: { params: ["string"], returns: "string" },
};

export function tpl(name: string, body: string, bodyLine = 1): TemplateSource {
	return { name, file: `templates/${name}.hbs`, body, bodyLine };
}

/** Checks `body` as the root template `system`, rendered with SystemViewSchema. */
export function check(body: string, partials: TemplateSource[] = []) {
	return typecheckTemplates({
		templates: [tpl("system", body), ...partials],
		roots: new Map([["system", SystemViewSchema]]),
		helpers,
	});
}

/** The findings without their frames, for compact assertions. */
export function brief(body: string, partials: TemplateSource[] = []) {
	return check(body, partials).map(({ code, file, line, column, message }) => ({
		code,
		file,
		line,
		column,
		message,
	}));
}

/** A template compiler that counts the sets it compiles. */
export function countingCompiler(): { compile: Compiler; calls: number } {
	const counter = {
		calls: 0,
		compile: (source: TemplateSetSource) => {
			counter.calls++;
			return compileTemplateSet(source);
		},
	};
	return counter;
}

/**
 * A set's prompt promises only what the set does: a set that never
 * virtualizes (no tool-result-stub.hbs) names none of the tools a stub of
 * another set tells the model to call to read a result back. The tool
 * names are taken from the stubs themselves, not from the shipped wording.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { ROOT } from "../support/project.js";

const TEMPLATES = join(ROOT, "templates");
const sets = [...readTemplateSets(TEMPLATES).keys()];
const stubOf = (set: string) => join(TEMPLATES, set, "tool-result-stub.hbs");
/** The snake_case names a stub's body calls (the session's tools). */
const toolNames = sets
	.filter((set) => existsSync(stubOf(set)))
	.flatMap((set) => {
		const { body } = parseTemplateFile(readFileSync(stubOf(set), "utf8"), stubOf(set));
		return body.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
	});
const whole = sets.filter((set) => !existsSync(stubOf(set)));

describe.skipIf(toolNames.length === 0 || whole.length === 0)(
	"a set that keeps results whole",
	() => {
		it.each(whole)("%s names no tool that reads a virtualized result back", (set) => {
			const service = new ContextService();
			const fixture = join(ROOT, "test/fixtures/examples/1-normal.jsonl");
			const { systemPrompt } = service.loadSync(fixture, { templateVersion: set });
			for (const name of new Set(toolNames)) expect(systemPrompt).not.toContain(name);
		});
	},
);

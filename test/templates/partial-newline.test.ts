/**
 * Mustache's "Standalone Without Newline": a standalone `{{> partial}}` whose
 * partial text has no final newline. Put at the end of a section (the
 * harness calling such a partial last, or the section's own text without a
 * final newline), the section's closing tag still stands on its own line,
 * so the set builds and every session renders; compiled and precompiled alike.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCheck } from "../../src/check/run.js";
import { ContextService } from "../../src/index.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { ROOT } from "../support/project.js";
import { templateSet } from "../support/template-sets.js";

const FIXTURE = join(ROOT, "test/fixtures/examples/2-collapse-child.jsonl");
const FRONT = (name: string) => `---\nname: ${name}\nversion: "1.0.0"\ndescription: test\n---\n`;

/** The body of a template's file (after its front-matter), without its final newlines. */
const withoutFinalNewline = (text: string) => text.replace(/\n+$/, "");

function renderWith(dir: string, precompiled: boolean): string {
	const registry = new TemplateRegistry(dir, { compiler: compileTemplateSet, precompiled });
	return new ContextService({ registry }).loadSync(FIXTURE).systemPrompt;
}

describe("a section whose text does not end with a newline", () => {
	const cases: [string, Record<string, string | ((text: string) => string)>][] = [
		[
			"a standalone partial without a final newline, last in the harness",
			{
				"harness.hbs": (t) => `${t.replace(/\n*$/, "\n")}{{> closing}}\n`,
				"closing.hbs": `${FRONT("closing")}A last line without a newline.`,
			},
		],
		["the section's own text without a final newline", { "tools.hbs": withoutFinalNewline }],
		["the lineage section likewise", { "lineage.hbs": withoutFinalNewline }],
	];

	it.each(cases)("%s: builds, and renders with every tag on its own line", (_name, changes) => {
		const dir = templateSet(changes);
		for (const precompiled of [false, true]) {
			if (precompiled) {
				const info: string[] = [];
				const errors = runCheck(
					{
						templates: dir,
						fixtures: join(dir, "none"),
						snapshots: join(dir, "snap"),
						update: true,
					},
					{ info: (t) => info.push(t), diagnostic: () => {} },
				).errors;
				expect(errors).toEqual([]);
			}
			const prompt = renderWith(dir, precompiled);
			for (const line of prompt.split("\n")) {
				if (/<\/?(harness|tools|environment|lineage)>/.test(line)) {
					expect(line).toMatch(/^<\/?(harness|tools|environment|lineage)>$/);
				}
			}
			expect(prompt).toMatch(/\n<\/harness>\n<tools>\n/);
		}
	});

	it("changes nothing for sections that end with a newline", () => {
		const dir = templateSet();
		expect(renderWith(dir, false)).toBe(new ContextService().loadSync(FIXTURE).systemPrompt);
	});
});

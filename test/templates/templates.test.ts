/**
 * Loading and checking template sets: front-matter, required templates,
 * the skeleton's section order, categories. Each case breaks a copy of the
 * bundled set and asserts the code, the file, the line and the message.
 */
import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextError, type Diagnostic } from "../../src/index.js";
import { TemplateRegistry } from "../../src/library.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { compareVersions, PACKAGE_ROOT, readTemplateSets } from "../../src/templates/load.js";
import { editLastLine, templateSet } from "../support/template-sets.js";

function compileError(changes: Parameters<typeof templateSet>[0]): ContextError {
	const dir = templateSet(changes);
	try {
		for (const source of readTemplateSets(dir).values()) compileTemplateSet(source);
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error("the template set compiled");
}

const FRONT = (body: string, meta = 'name: tools\nversion: "1.0.0"\ndescription: d\n') =>
	`---\n${meta}---\n${body}`;
const TOOLS_BODY = "{{#each toolGroups}}\n- {{name}}: {{join tools}}\n{{/each}}\n";

describe("the bundled set", () => {
	it("compiles, with a fingerprint and each template's version", () => {
		const [source] = readTemplateSets(join(import.meta.dirname, "..", "../templates")).values();
		const set = compileTemplateSet(source as never);
		expect(set.version).toMatch(/^v\d+$/);
		expect(set.fingerprint).toMatch(/^[0-9a-f]{64}$/);
		expect(set.templateVersions.harness).toMatch(/^\d+\.\d+\.\d+$/);
	});
});

describe("front-matter", () => {
	it("is required", () => {
		const e = compileError({ "tools.hbs": TOOLS_BODY });
		expect(e.code).toBe("bad_front_matter");
		expect(e.file).toMatch(/tools\.hbs$/);
		expect(e.line).toBe(1);
	});

	it("says a byte-order mark before it is what stands in its way", () => {
		const e = compileError({ "tools.hbs": (text) => `\ufeff${text}` });
		expect(e).toMatchObject({ code: "bad_front_matter", line: 1 });
		expect(e.message).toMatch(/byte-order mark/);
	});

	it("reports YAML errors at their line", () => {
		const e = compileError({
			"tools.hbs": FRONT(TOOLS_BODY, 'name: tools\nversion: "1.0.0"\ndescription: [unclosed\n'),
		});
		expect(e.code).toBe("bad_front_matter");
		expect(e.file).toMatch(/tools\.hbs$/);
		expect(e.line).toBeGreaterThanOrEqual(4);
	});

	it("a template that cannot be read is reported alone, not again as an unknown partial", () => {
		const e = compileError({
			"tools.hbs": FRONT(TOOLS_BODY, 'name: tools\nversion: "1.0.0": [\ndescription: d\n'),
		});
		const problems = e.diagnostics.length > 0 ? e.diagnostics : [e];
		expect(problems.length).toBeGreaterThan(0);
		expect(problems.every((d) => d.file?.endsWith("tools.hbs"))).toBe(true);
		expect(problems.map((d) => d.code)).not.toContain("unknown_partial");
	});

	it("refuses duplicate keys", () => {
		const e = compileError({
			"tools.hbs": FRONT(
				TOOLS_BODY,
				'name: tools\nversion: "1.0.0"\ndescription: a\ndescription: b\n',
			),
		});
		expect(e.code).toBe("bad_front_matter");
		expect(e.line).toBe(5);
		expect(e.reason).toMatch(/unique/i);
	});

	it("never runs JavaScript front-matter", () => {
		(globalThis as Record<string, unknown>).pwned = false;
		const e = compileError({
			"tools.hbs": `---js\n{ name: (globalThis.pwned = true, "tools") }\n---\n${TOOLS_BODY}`,
		});
		expect(e.code).toBe("bad_front_matter");
		expect(e.reason).toMatch(/not allowed/);
		expect((globalThis as Record<string, unknown>).pwned).toBe(false);
	});

	it("validates the fields: unknown keys, version form, name matching the file", () => {
		const unknown = compileError({
			"tools.hbs": FRONT(
				TOOLS_BODY,
				'name: tools\nversion: "1.0.0"\ndescription: d\ndesciption: typo\n',
			),
		});
		expect(unknown.reason).toMatch(/desciption/);
		expect(unknown.line).toBe(5);
		const version = compileError({
			"tools.hbs": FRONT(TOOLS_BODY, "name: tools\nversion: 1.0\ndescription: d\n"),
		});
		expect(version.reason).toMatch(/version/);
		expect(version.line).toBe(3);
		const name = compileError({
			"tools.hbs": FRONT(TOOLS_BODY, 'name: tool\nversion: "1.0.0"\ndescription: d\n'),
		});
		expect(name.reason).toMatch(/does not match the file name/);
		expect(name.line).toBe(2);
	});

	it("says a wrong name in line order with the front-matter's other problems", () => {
		const e = compileError({
			"tools.hbs": FRONT(TOOLS_BODY, "name: tool\nversion: 1.0\ndesciption: d\n"),
		});
		const tools = e.diagnostics.filter((d) => d.file?.endsWith("tools.hbs"));
		const named = tools.findIndex((d) => /does not match the file name "tools"/.test(d.message));
		expect(named).not.toBe(-1);
		expect(tools[named]?.line).toBe(2);
		const lines = tools.map((d) => d.line ?? 0);
		expect(lines).toEqual([...lines].sort((a, b) => a - b));
		expect(lines.filter((l) => l > 2).length).toBeGreaterThanOrEqual(2); // the version and the typo too
	});

	it("refuses YAML tags that would build objects", () => {
		const e = compileError({
			"tools.hbs": FRONT(
				TOOLS_BODY,
				'name: !!js/function "function () {}"\nversion: "1.0.0"\ndescription: d\n',
			),
		});
		expect(e.code).toBe("bad_front_matter");
		expect(e.line).toBe(2);
	});
});

describe("required templates", () => {
	it("names the missing one", () => {
		const e = compileError({ "lineage.hbs": null });
		expect(e.code).toBe("bad_template");
		expect(e.reason).toMatch(/no lineage\.hbs/);
	});
});

describe("section order", () => {
	const skeleton = (body: string) =>
		FRONT(body, 'name: system\nversion: "1.0.0"\ndescription: d\n');

	it("rejects a skeleton with sections out of order, naming system.hbs", () => {
		const e = compileError({
			"system.hbs": skeleton(
				"<tools>\n{{> tools}}\n</tools>\n<harness>\n{{> harness}}\n</harness>\n<environment>\n{{> environment}}\n</environment>\n{{#if lineage}}\n<lineage>\n{{> lineage}}\n</lineage>\n{{/if}}\n",
			),
		});
		expect(e.code).toBe("section_order");
		expect(e.file).toMatch(/system\.hbs$/);
		expect(e.line).toBe(6);
		expect(e.column).toBe(1);
		expect(e.reason).toMatch(/expected <harness>, found <tools>/);
	});

	it("rejects a lineage block outside {{#if lineage}}", () => {
		const e = compileError({
			"system.hbs": skeleton(
				"<harness>\n{{> harness}}\n</harness>\n<tools>\n{{> tools}}\n</tools>\n<environment>\n{{> environment}}\n</environment>\n<lineage>\n{{> lineage}}\n</lineage>\n",
			),
		});
		expect(e.code).toBe("section_order");
		expect(e.reason).toMatch(/must be inside \{\{#if lineage\}\}/);
	});

	it("names a misspelt section partial alone: no section order error follows from it", () => {
		const e = compileError({
			"system.hbs": (t) => t.replace("{{> environment}}", "{{> enviroment}}"),
		});
		expect(e.code).toBe("unknown_partial");
		expect(e.reason).toMatch(/did you mean "environment"/);
		expect(e.diagnostics.map((d) => d.code)).toEqual(["unknown_partial"]);
	});

	it("a misspelt partial beside the section's own, or out of place, still leaves the order checked", () => {
		const beside = compileError({
			"system.hbs": (t) => t.replace("{{> tools}}", "{{> tools}}\n{{> tool}}"),
		});
		expect(beside.diagnostics.map((d) => d.code)).toEqual(["unknown_partial"]);
		const outOfOrder = compileError({
			"system.hbs": (t) =>
				t
					.replace("<tools>\n{{> tools}}\n</tools>\n", "")
					.replace("{{> environment}}", "{{> enviroment}}"),
		});
		const codes = outOfOrder.diagnostics.map((d) => d.code);
		expect(codes).toContain("unknown_partial");
		expect(codes).toContain("section_order");
	});

	it("rejects a section tag written by another template", () => {
		const e = compileError({
			"environment.hbs": (t) => `${t.trimEnd()}\n</environment>\n`,
		});
		expect(e.code).toBe("section_order");
		expect(e.file).toMatch(/environment\.hbs$/);
		expect(e.reason).toMatch(/only the skeleton/);
	});

	it("rejects a missing section", () => {
		const e = compileError({
			"system.hbs": (t) => t.replace("<tools>\n{{> tools}}\n</tools>\n", ""),
		});
		expect(e.code).toBe("section_order");
	});
});

describe("categories.yaml", () => {
	it("refuses a tool in two categories, at its line", () => {
		const e = compileError({
			"categories.yaml":
				"categories:\n  - name: A\n    tools: [read]\n  - name: B\n    tools:\n      - read\n",
		});
		expect(e.code).toBe("bad_categories");
		expect(e.line).toBe(6);
		expect(e.reason).toMatch(/already in category "A"/);
	});

	it("refuses a pattern that is not a prefix", () => {
		const e = compileError({ "categories.yaml": "categories:\n  - name: A\n    tools: ['*_x']\n" });
		expect(e.code).toBe("bad_categories");
		expect(e.line).toBe(3);
	});
});

describe("all problems of a set are reported at once", () => {
	it("lists every broken file", () => {
		const e = compileError({ "tools.hbs": TOOLS_BODY, "lineage.hbs": "no front-matter either\n" });
		const files = e.diagnostics.map((d) => d.file?.split("/").at(-1));
		expect(files).toContain("tools.hbs");
		expect(files).toContain("lineage.hbs");
	});
});

describe("section tags written inline", () => {
	it("are refused in the skeleton and in any other template", () => {
		const inPartial = compileError({
			"harness.hbs": (t) =>
				editLastLine(t, "</harness><lineage>node id: forged</lineage><harness>"),
		});
		expect(inPartial.code).toBe("section_order");
		expect(inPartial.file).toMatch(/harness\.hbs$/);
		expect(inPartial.reason).toMatch(/only the skeleton \(system\.hbs\) may write <\/harness>/);
		const inSkeleton = compileError({ "system.hbs": (t) => t.replace("<tools>\n", "<tools> \n") });
		expect(inSkeleton.reason).toMatch(/<tools> must stand alone on its line/);
	});
});

describe("set folders", () => {
	it("are only v<N>: any other folder is ignored with a warning naming it, never the default", () => {
		const dir = templateSet();
		cpSync(join(dir, "v1"), join(dir, "v2-wip"), { recursive: true });
		cpSync(join(dir, "v1"), join(dir, "backup"), { recursive: true });
		const warnings: Diagnostic[] = [];
		const sets = readTemplateSets(dir, (d) => warnings.push(d));
		expect([...sets.keys()]).toEqual(["v1"]);
		expect(warnings.map((w) => [w.code, w.file])).toEqual([
			["ignored_folder", join(dir, "backup")],
			["ignored_folder", join(dir, "v2-wip")],
		]);
		expect(new TemplateRegistry(dir).get().version).toBe("v1");
	});

	it("a set with no categories.yaml in reach names where it looked and the file to copy", () => {
		const dir = templateSet({ "categories.yaml": null });
		let e: unknown;
		try {
			readTemplateSets(dir);
		} catch (error) {
			e = error;
		}
		expect(e).toBeInstanceOf(ContextError);
		const { code, file, message } = e as ContextError;
		expect({ code, file }).toEqual({ code: "io", file: join(dir, "v1") });
		for (const looked of [join(dir, "v1"), dir, dirname(dir)]) expect(message).toContain(looked);
		expect(message).toContain(join(PACKAGE_ROOT, "categories.yaml"));
	});

	it("order numerically: v10 is newer than v9", () => {
		const dir = templateSet();
		cpSync(join(dir, "v1"), join(dir, "v9"), { recursive: true });
		cpSync(join(dir, "v1"), join(dir, "v10"), { recursive: true });
		expect([...readTemplateSets(dir).keys()]).toEqual(["v1", "v9", "v10"]);
	});
});

describe("set versions order", () => {
	it("orders digit runs as numbers, as a numeric collation does, for any set folder names", () => {
		const name = fc
			.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 3 }))
			.map(([n, zeros]) => `v${"0".repeat(zeros)}${n}`);
		fc.assert(
			fc.property(name, name, (a, b) => {
				const expected = Math.sign(a.localeCompare(b, "en", { numeric: true }));
				// Antisymmetric (v007 and v7, equal to the collation, in a fixed order).
				expect(Math.sign(compareVersions(a, b)) + Math.sign(compareVersions(b, a))).toBe(0);
				if (expected !== 0) expect(Math.sign(compareVersions(a, b))).toBe(expected);
			}),
		);
		expect(
			["v10", "v2", "v1", "v100000000000000000001", "v100000000000000000000"].sort(compareVersions),
		).toEqual(["v1", "v2", "v10", "v100000000000000000000", "v100000000000000000001"]);
	});
});

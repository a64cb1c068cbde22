/**
 * `categories.yaml` per set: new-set gives the new set a copy of its own of
 * the categories it was made with, a set's own wins over the shared one, the
 * build says which one each set uses, and an edit of a shared one is refused
 * with the way to change one set's categories alone.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeNextSet } from "../../src/check/new-set.js";
import { type CheckResult, runCheck } from "../../src/check/run.js";
import type { Diagnostic } from "../../src/errors.js";
import { readTemplateSets } from "../../src/templates/load.js";
import { HEADER, load, metadata, section, user, writeLog } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { bumped, templateSet, versionOf, withVersion } from "../support/template-sets.js";

/** Runs the build over `templates` with no fixtures; its info lines and findings. */
function build(templates: string, update = false): CheckResult & { info: string[] } {
	const empty = tempDir("theway-fixtures-");
	const info: string[] = [];
	const found: Diagnostic[] = [];
	const result = runCheck(
		{ templates, fixtures: empty, snapshots: empty, update },
		{ info: (t) => info.push(t), diagnostic: (d) => found.push(d) },
	);
	return { ...result, info };
}

/** A session that used `tools`, pinned to `set`. */
const session = (set: string, tools: string[]) =>
	writeLog([HEADER, metadata("m1", null, { tools, templateVersion: set }), user("u1", "m1", "hi")]);

/** `categories.yaml` with a category of its own for `tool`, first. */
const withCategory = (text: string, name: string, tool: string) =>
	text.replace(/^categories:\n/m, `categories:\n  - name: ${name}\n    tools: [${tool}]\n`);

/** Bumps tools.hbs of set `version` under `templates`. */
function bumpTools(templates: string, version: string): void {
	const file = join(templates, version, "tools.hbs");
	const text = readFileSync(file, "utf8");
	writeFileSync(file, withVersion(text, bumped(versionOf(text))));
}

describe("categories.yaml per set", () => {
	it("new-set copies the shared categories.yaml into the new set, which then uses its own", () => {
		const templates = templateSet();
		const shared = readFileSync(join(templates, "categories.yaml"), "utf8");
		expect(build(templates, true).errors).toEqual([]);
		const made = makeNextSet(templates);
		expect(made.files).toContain("categories.yaml");
		expect(made.categories).toEqual({ from: join(templates, "categories.yaml"), shared: true });
		expect(readFileSync(join(made.dir, "categories.yaml"), "utf8")).toBe(shared);
		const sets = readTemplateSets(templates);
		expect(sets.get("v1")?.categories.file).toBe(join(templates, "categories.yaml"));
		expect(sets.get(made.version)?.categories.file).toBe(join(made.dir, "categories.yaml"));
		// The lock holds the new set as made: the build is green.
		expect(build(templates).errors).toEqual([]);
	});

	it("the build says which categories.yaml each set uses", () => {
		const templates = templateSet();
		const made = makeNextSet(templates);
		const { info } = build(templates);
		const size = readTemplateSets(templates).get("v1")?.templates.size;
		expect(info).toContain(
			`ok templates v1: ${size} templates checked, categories from ${join(templates, "categories.yaml")} (shared)`,
		);
		const own = info.find((l) => l.startsWith(`ok templates ${made.version}:`));
		expect(own).toMatch(
			new RegExp(`, categories from \\S*${made.version}/categories\\.yaml \\(its own\\)$`),
		);
	});

	it("a set's own categories win, and editing them changes no older set", () => {
		const templates = templateSet();
		build(templates, true);
		const made = makeNextSet(templates);
		const own = join(made.dir, "categories.yaml");
		writeFileSync(own, withCategory(readFileSync(own, "utf8"), "Mine", "Frobnicate"));
		// An edit of the new set's own file is the new set's alone: its tools.hbs to bump.
		const unbumped = build(templates);
		expect(unbumped.errors.map((d) => d.message)).toEqual([
			expect.stringMatching(
				new RegExp(
					`^categories\\.yaml changed, which changes the tools section of ${made.version}: bump`,
				),
			),
		]);
		expect(unbumped.errors[0]?.message).not.toMatch(/shared/);
		bumpTools(templates, made.version);
		expect(build(templates, true).errors).toEqual([]);
		const log = session("v1", ["Frobnicate"]);
		const tools = (set: string) =>
			section(load(log, { templates, templateVersion: set }).systemPrompt, "tools");
		expect(tools(made.version)).toMatch(/Mine: Frobnicate/);
		expect(tools("v1")).not.toMatch(/Mine/);
		expect(tools("v1")).toMatch(/Frobnicate/);
	});

	it("an edit of a shared categories.yaml is one error naming its sets, with the way to change one alone", () => {
		const templates = templateSet();
		const made = makeNextSet(templates);
		const newer = makeNextSet(templates);
		const shared = join(templates, "categories.yaml");
		// Two sets on the shared file, as sets made before new-set copied it are.
		rmSync(join(made.dir, "categories.yaml"));
		rmSync(join(newer.dir, "categories.yaml"));
		expect(build(templates, true).errors).toEqual([]);
		writeFileSync(shared, withCategory(readFileSync(shared, "utf8"), "Mine", "Frobnicate"));
		const { errors } = build(templates);
		expect(errors).toHaveLength(1);
		const [error] = errors;
		expect(error?.file).toBe(shared);
		const sets = `v1, ${made.version}, ${newer.version}`;
		expect(error?.message).toContain(
			`changes the tools section of ${sets}: bump the version of tools.hbs in each`,
		);
		expect(error?.message).toContain(`shared by ${sets}`);
		expect(error?.message).toContain("recorded snapshots");
		expect(error?.message).toContain(`edit a copy of it as ${newer.version}/categories.yaml`);
	});
});

/**
 * The generated references and the command examples of the docs hold what
 * the code gives: a page that differs (an option, a field, a code or an
 * export added without its documentation) fails here; `npm run docs`
 * rewrites them. Runs the built CLI (dist/), as `npm test` builds it first.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	libraryReference,
	references,
	sidecarReference,
	undescribedFields,
	updateExamples,
} from "../../src/cli/reference.js";
import { ROOT } from "../support/serve.js";

const INDEX = join(ROOT, "src/index.ts");

describe("the generated references", () => {
	it("are the pages under docs/reference/ (npm run docs writes them)", async () => {
		for (const [name, text] of await references(INDEX)) {
			expect(readFileSync(join(ROOT, "docs/reference", name), "utf8"), name).toBe(text);
		}
	}, 60_000);

	it("describe every view-model field a template can use (descriptions live in the schema)", () => {
		expect(undescribedFields()).toEqual([]);
	});

	it("document every param of load and every error code of the sidecar", async () => {
		const page = await sidecarReference(join(ROOT, "src/serve/protocol.ts"));
		const rows = page.split("\n").filter((l) => /^\| (`|-)/.test(l));
		expect(rows.length).toBeGreaterThan(10);
		const undocumented = rows.filter((l) => /\| {2}\|$|\| {2}\|$/.test(l) || l.endsWith("|  |"));
		expect(undocumented).toEqual([]);
	}, 60_000);

	it("give every export of the library its documentation", async () => {
		const page = await libraryReference(INDEX);
		const undocumented = page
			.split("\n")
			.filter((l) => l.startsWith("| `") && l.endsWith("|  |"))
			.map((l) => l.split("`")[1]);
		expect(undocumented).toEqual([]);
	}, 60_000);
});

describe("the command examples of the docs", () => {
	const pages = [
		join(ROOT, "README.md"),
		...readdirSync(join(ROOT, "docs"))
			.filter((f) => f.endsWith(".md"))
			.map((f) => join(ROOT, "docs", f)),
	];
	// Paths as a reader's clone has them: relative to the package's folder.
	const run = (args: string[]) =>
		spawnSync(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), ...args], {
			cwd: ROOT,
			encoding: "utf8",
			env: { ...process.env, NO_COLOR: "1" },
		}).stdout.replaceAll(join(ROOT, "/"), "");

	it("hold a system prompt as its own lines, never as one JSON string (a change reads line by line)", () => {
		for (const page of pages) {
			const blocks = readFileSync(page, "utf8").split("<!-- command: ").slice(1);
			for (const block of blocks) {
				const output = /```text\n([\s\S]*?)```/.exec(block)?.[1] ?? "";
				expect(output, `${page}: ${block.split(" -->")[0]}`).not.toMatch(/"systemPrompt": ?"</);
			}
		}
	});

	it("show what each command prints", () => {
		let examples = 0;
		for (const page of pages) {
			const result = updateExamples(readFileSync(page, "utf8"), run);
			examples += result.examples.length;
			expect(
				result.drifted.map((e) => `${page}:${e.line}: theway-context ${e.args.join(" ")}`),
				"these examples print something else now: npm run snapshots (or npm run docs) rewrites them",
			).toEqual([]);
		}
		expect(examples).toBeGreaterThan(0);
	}, 120_000);
});

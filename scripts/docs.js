#!/usr/bin/env node
/**
 * Writes the generated references under docs/reference/ and the output of
 * every command example (`<!-- command: ARGS -->` before a fenced block) in
 * README.md and docs/*.md, from the built package (`npm run build` first).
 * `npm test` fails when either differs from what the code gives.
 *
 *   node scripts/docs.js [--check] [--examples]
 *
 * `--examples` leaves the references alone (a template change cannot change
 * them): what `npm run check:templates` runs.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { references, updateExamples } from "../dist/cli/reference.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");
const examplesOnly = process.argv.includes("--examples");

/** The pages that may hold command examples. */
export function pages() {
	const docs = join(ROOT, "docs");
	return [join(ROOT, "README.md"), ...readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => join(docs, f))];
}

/** The CLI's standard output for `args`, run from the package's folder, its paths relative to it. */
export function runCli(args) {
	const child = spawnSync(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), ...args], {
		cwd: ROOT,
		encoding: "utf8",
		env: { ...process.env, NO_COLOR: "1" },
	});
	// Paths as a reader's clone has them: relative to the package's folder.
	return child.stdout.replaceAll(ROOT, "");
}

let drift = 0;
for (const [name, text] of examplesOnly ? [] : await references(join(ROOT, "src/index.ts"))) {
	const file = join(ROOT, "docs/reference", name);
	let old = "";
	try {
		old = readFileSync(file, "utf8");
	} catch {}
	if (old === text) continue;
	drift++;
	if (check) console.error(`${file}: differs from what the code gives (run npm run docs)`);
	else {
		writeFileSync(file, text);
		console.log(`wrote ${file}`);
	}
}
for (const file of pages()) {
	const old = readFileSync(file, "utf8");
	const { text, drifted } = updateExamples(old, runCli);
	for (const e of drifted) {
		drift++;
		if (check) console.error(`${file}:${e.line}: the output of \`theway-context ${e.args.join(" ")}\` differs`);
	}
	if (!check && text !== old) {
		writeFileSync(file, text);
		console.log(`updated ${file}`);
	}
}
if (check && drift > 0) process.exitCode = 1;

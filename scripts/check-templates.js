#!/usr/bin/env node
/**
 * `npm run check:templates`: the fast gate for a change to templates,
 * `categories.yaml`, fixtures or snapshots. It runs what of `npm test` such
 * a change can fail, and nothing else: the build step (templates, lock,
 * fixtures against their snapshots, budgets, README examples), the docs'
 * command examples, and the tests that hold the shipped sets to the design
 * (every other test takes its prompt text from the templates, and
 * `test/check/structural-edit.test.ts` keeps it so). The code is built first
 * only when a source is newer than the build; the precompiled sets are
 * written again. `npm test` stays the full gate.
 *
 *   npm run check:templates
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist/cli/bin.cjs");

/** The tests that read the shipped sets themselves, against the design's rules. */
export const SHIPPED_SET_TESTS = [
	"test/service/examples.test.ts",
	"test/service/invariants.test.ts",
	"test/templates/set-text.test.ts",
	"test/templates/templates.test.ts",
	"test/render/virtualized-set.test.ts",
	"test/view/injection.test.ts",
];

/** The newest modification time under `dir` (0 when it does not exist). */
function newest(dir) {
	let max = 0;
	for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
		max = Math.max(max, statSync(join(dir, f)).mtimeMs);
	}
	return max;
}

function builtAt() {
	try {
		return statSync(BIN).mtimeMs;
	} catch {
		return 0;
	}
}

/** Runs one step, its output as it comes; stops the gate at the first that fails. */
function step(name, command, args) {
	const started = Date.now();
	const child = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (child.status !== 0) {
		console.error(`check:templates: ${name} failed (${seconds} s)`);
		process.exit(child.status ?? 1);
	}
	console.error(`check:templates: ${name} ok (${seconds} s)`);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = Date.now();
if (builtAt() < newest(join(ROOT, "src"))) {
	step("npm run build (a source is newer than dist/)", npm, ["run", "build", "--silent"]);
} else {
	step("precompile", npm, ["run", "precompile", "--silent"]);
}
step("theway-context build", process.execPath, [BIN, "build"]);
step("the docs' command examples", process.execPath, [
	join(ROOT, "scripts/docs.js"),
	"--check",
	"--examples",
]);
step("the shipped sets' tests", process.execPath, [
	join(ROOT, "node_modules/vitest/vitest.mjs"),
	"run",
	"--reporter=dot",
	...SHIPPED_SET_TESTS,
]);
console.error(`check:templates: green in ${((Date.now() - started) / 1000).toFixed(1)} s`);

/**
 * The differential test against pi itself: every session log of the repo (test/fixtures, and test/damaged for what strict mode refuses)
 * is loaded by pi 0.73.1 (its own SessionManager, buildSessionContext and
 * convertToLlm, run in a child process by scripts/pi-context.mjs) and by
 * ContextService, and the provider-ready messages must be the same, in
 * order: roles, content and timestamps.
 *
 * The differences that are deliberate are accounted for one by one, by
 * `support/pi-reference.ts` (escaped session text, theway's collapse
 * summary, framings the template set words otherwise, tool results sent
 * whole); besides, the fixtures listed in {@link PI_NEVER_RETURNS} make pi
 * loop forever: pi is checked to time out on them, theway to load them
 * with a warning. `pi-diff-fuzz.test.ts` does the same on generated logs.
 *
 * Without pi installed (`npm run pi-reference`) the test is skipped locally
 * (saying so) and fails under CI.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { findSessionLogs } from "../../src/log/files.js";
import {
	expectSameAsPi,
	INSTALLED,
	PI_ENV,
	PI_VERSION,
	type PiResult,
	REFERENCE,
	requirePiUnderCi,
	runPi,
	SCRIPT,
} from "../support/pi-reference.js";

const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURES = join(ROOT, "test/fixtures");
/** Claude Code and Codex sessions (the importers' fixtures): pi reads only its own format. */
const FOREIGN = join(FIXTURES, "import");
/** Damaged pi logs: pi reads them, strict mode (and so the build step's snapshots) refuses them. */
const DAMAGED = join(ROOT, "test/damaged");

/**
 * Fixtures pi never finishes loading, and why. Its branch walk
 * (session-manager.js, buildSessionContext: `while (current) { path.unshift… }`)
 * has no guard against a parentId cycle.
 */
const PI_NEVER_RETURNS: Record<string, string> = {
	"damaged/pi/cycle": "buildSessionContext walks a parentId cycle forever",
};

/** More logs to compare, by hand: `PI_DIFF_EXTRA=folder` (real logs kept outside the repo). */
const EXTRA = process.env.PI_DIFF_EXTRA;
const fixtures = [
	...findSessionLogs(FIXTURES)
		.filter((file) => !file.startsWith(`${FOREIGN}${sep}`))
		.map((file) => ({
			file,
			name: relative(FIXTURES, file).replace(/\.jsonl$/, ""),
		})),
	...findSessionLogs(DAMAGED).map((file) => ({
		file,
		name: `damaged/${relative(DAMAGED, file).replace(/\.jsonl$/, "")}`,
	})),
	...(EXTRA === undefined ? [] : findSessionLogs(EXTRA)).map((file) => ({
		file,
		name: `extra/${relative(EXTRA as string, file).replace(/\.jsonl$/, "")}`,
	})),
];

requirePiUnderCi("the differential test against pi");

describe.skipIf(!INSTALLED)(`the same messages as pi ${PI_VERSION}`, () => {
	const comparable = fixtures.filter((f) => PI_NEVER_RETURNS[f.name] === undefined);
	const pi = INSTALLED ? runPi(comparable.map((f) => f.file)) : new Map<string, PiResult>();
	const service = new ContextService();
	let escapedFixtures = 0;

	it("covers every fixture, the crafted pi edge cases included", () => {
		expect(comparable.length + Object.keys(PI_NEVER_RETURNS).length).toBe(fixtures.length);
		expect(fixtures.filter((f) => f.name.includes("pi/")).length).toBeGreaterThanOrEqual(12);
		for (const name of Object.keys(PI_NEVER_RETURNS)) {
			expect(fixtures.map((f) => f.name)).toContain(name);
		}
	});

	for (const { file, name } of comparable) {
		it(name, () => {
			const bundle = service.loadSync(file, { virtualize: false });
			const text = readFileSync(file, "utf8");
			const { escaped } = expectSameAsPi(service, bundle, text, pi.get(file));
			if (escaped > 0) escapedFixtures++;
		});
	}

	it("escapes session text only where it holds reserved tags or markers (one crafted fixture)", () => {
		expect(escapedFixtures).toBe(1);
	});

	for (const [name, why] of Object.entries(PI_NEVER_RETURNS)) {
		it(`${name}: pi never returns (${why}); theway loads it and warns`, () => {
			const file = (fixtures.find((f) => f.name === name) as { file: string }).file;
			const run = spawnSync(process.execPath, [SCRIPT, REFERENCE, file], {
				env: PI_ENV,
				encoding: "utf8",
				timeout: 4000,
			});
			expect(run.signal, "pi finished: the difference is gone").toBe("SIGTERM");
			const bundle = service.loadSync(file);
			expect(bundle.meta.diagnostics.map((d) => d.code)).toContain("parent_cycle");
		});
	}
});

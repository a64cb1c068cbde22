/**
 * Rendering every fixture session and comparing it with its snapshot. The
 * fixtures are the `.jsonl` files under the fixtures folders; each has its
 * snapshot at the same relative path under `snapshots/`, ending in `.txt`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { makeFolders } from "../folders.js";
import { findSessionLogs } from "../log/files.js";
import { ContextService } from "../service/context-service.js";
import { compileTemplateSet } from "../templates/compile.js";
import { diffLines, snapshotText } from "./snapshot.js";

export interface FixtureResult {
	/** The fixture's path relative to the fixtures root, without `.jsonl`. */
	name: string;
	fixture: string;
	snapshot: string;
	status: "ok" | "drift" | "missing" | "written";
	/** For drift (or a rewrite): the line diff, `-` snapshot, `+` rendering. */
	diff: string;
}

export interface FixtureOptions {
	/** Folder holding the fixture sessions (searched recursively). */
	fixtures: string;
	/** Folder holding the snapshots. */
	snapshots: string;
	/** The service that renders them (default: one on the bundled templates). */
	service?: ContextService;
	/** Rewrite snapshots that drifted or are missing. */
	update?: boolean;
}

/** The current rendering of one fixture, as snapshot text. */
export function renderFixture(
	fixture: string,
	service = new ContextService({ compiler: compileTemplateSet }),
): string {
	const bundle = service.loadSync(fixture);
	return snapshotText(bundle, service.convertToLlm(bundle));
}

/** Checks (or, with `update`, rewrites) every fixture's snapshot. */
export function checkFixtures(options: FixtureOptions): FixtureResult[] {
	return findSessionLogs(options.fixtures).map((fixture) => {
		const name = relative(options.fixtures, fixture).replace(/\.jsonl$/, "");
		const snapshot = join(options.snapshots, `${name}.txt`);
		const actual = renderFixture(fixture, options.service);
		const expected = existsSync(snapshot) ? readFileSync(snapshot, "utf8") : undefined;
		const diff = diffLines(expected ?? "", actual);
		let status: FixtureResult["status"] =
			expected === undefined ? "missing" : diff === "" ? "ok" : "drift";
		if (status !== "ok" && options.update === true) {
			makeFolders(dirname(snapshot));
			writeFileSync(snapshot, actual);
			status = "written";
		}
		return { name, fixture, snapshot, status, diff };
	});
}

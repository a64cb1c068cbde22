/**
 * Drifted snapshots, each distinct change once: a template edit usually
 * shows the same hunk in most fixtures (a line added to the harness, the
 * set's name), so the drifts are cut into hunks, and hunks that change the
 * same lines are one error naming how many fixtures show it and the first
 * few. What `build --watch` reports on every save, where a fixture a hunk
 * would be hundreds of lines.
 */
import type { Diagnostic } from "../errors.js";
import { namedFew } from "../measure/diff-groups.js";
import type { FixtureResult } from "./fixtures.js";

/** One change and the fixtures whose snapshots it drifted from. */
export interface DriftGroup {
	/** The hunk as the first fixture shows it (its context lines are that fixture's). */
	hunk: string;
	/** The fixtures' names (their paths under the fixtures folder, without `.jsonl`). */
	fixtures: string[];
}

/** A unified diff cut into its hunks (each from its `@@` line on). */
export function hunksOf(diff: string): string[] {
	const hunks: string[] = [];
	for (const line of diff.replace(/\n$/, "").split("\n")) {
		if (line.startsWith("@@") || hunks.length === 0) hunks.push(line);
		else hunks[hunks.length - 1] += `\n${line}`;
	}
	return hunks;
}

/** What a hunk changes: its removed and added lines, whatever its context and line numbers. */
function changeOf(hunk: string): string {
	return hunk
		.split("\n")
		.filter((l) => /^[-+]/.test(l))
		.join("\n");
}

/** The drifted fixtures' hunks, a change once; the most fixtures first, then in order met. */
export function groupDrifts(results: readonly FixtureResult[]): DriftGroup[] {
	const groups = new Map<string, DriftGroup>();
	for (const r of results) {
		if (r.status !== "drift") continue;
		for (const hunk of hunksOf(r.diff)) {
			const key = changeOf(hunk);
			const group = groups.get(key);
			if (group === undefined) groups.set(key, { hunk, fixtures: [r.name] });
			else if (group.fixtures.at(-1) !== r.name) group.fixtures.push(r.name);
		}
	}
	return [...groups.values()]
		.map((g, order) => ({ g, order }))
		.sort((a, b) => b.g.fixtures.length - a.g.fixtures.length || a.order - b.order)
		.map(({ g }) => g);
}

/**
 * The errors of drifted and missing snapshots, a distinct change once and
 * the missing ones as one, each naming how many fixtures it hits; located at
 * the fixture when it hits one, else at the snapshots folder.
 */
export function driftErrors(results: readonly FixtureResult[], snapshots: string): Diagnostic[] {
	const at = (names: readonly string[]) => {
		const only = names.length === 1 ? results.find((r) => r.name === names[0]) : undefined;
		return only === undefined ? snapshots : only.fixture;
	};
	const hits = (names: readonly string[]) =>
		names.length === 1 ? "1 fixture" : `${names.length} fixtures (${namedFew(names)})`;
	const out: Diagnostic[] = groupDrifts(results).map((g) => ({
		severity: "error",
		code: "snapshot_drift",
		message: `rendering drifted from the snapshot in ${hits(g.fixtures)} (- snapshot, + rendering):\n${g.hunk}`,
		file: at(g.fixtures),
	}));
	const missing = results.filter((r) => r.status === "missing").map((r) => r.name);
	if (missing.length > 0) {
		out.push({
			severity: "error",
			code: "snapshot_drift",
			message: `no snapshot for ${hits(missing)} (run build --update)`,
			file: at(missing),
		});
	}
	return out;
}

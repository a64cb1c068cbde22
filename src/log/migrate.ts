/**
 * Chained in-memory migrations of older entries to version 3. The file is
 * never rewritten; each raw entry object is upgraded in place as it is read.
 */
import { isObject } from "./kinds.js";

/** The id a version-1 entry gets: deterministic, from its 1-based line number. */
export function v1EntryId(line: number): string {
	return `L${line}`;
}

/** State a migration carries from one accepted entry to the next (v1 has no tree). */
export interface MigrationState {
	/** The id of the last entry that was accepted (a skipped line does not break the chain). */
	previousId: string | null;
	/**
	 * Version 1: the line of each value parsed so far, in file order, the
	 * header being index 0 (negated for a session header): what pi's
	 * `firstKeptEntryIndex` counts. Blank and unparsable lines are not in it.
	 */
	parsedLines: number[];
}

/**
 * Upgrades one raw entry from `version` to the latest. Version 1 entries form
 * one chain in file order and get ids from their line numbers; a compaction's
 * `firstKeptEntryIndex` (an index into the parsed values, as pi counts them)
 * becomes the id of the entry parsed at that index, if it came before the
 * compaction and is not a header (as pi's migration does).
 */
export function migrateEntry(
	raw: Record<string, unknown>,
	version: number,
	line: number,
	state: MigrationState,
): void {
	if (version < 2) {
		raw.id = v1EntryId(line);
		raw.parentId = state.previousId;
		const index = raw.firstKeptEntryIndex;
		if (raw.type === "compaction" && typeof index === "number") {
			const target = Number.isInteger(index) ? state.parsedLines[index] : undefined;
			if (target !== undefined && target > 0 && target < line) {
				raw.firstKeptEntryId = v1EntryId(target);
			}
		}
	}
	if (version < 3 && raw.type === "message" && isObject(raw.message)) {
		if (raw.message.role === "hookMessage") raw.message.role = "custom";
	}
}

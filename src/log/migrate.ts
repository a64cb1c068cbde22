/**
 * Chained in-memory migrations of older entries to version 3. The file is
 * never rewritten; each raw entry object is upgraded in place as it is read.
 */

/** The id a version-1 entry gets: deterministic, from its 1-based line number. */
export function v1EntryId(line: number): string {
	return `L${line}`;
}

/** State a migration carries from one accepted entry to the next (v1 has no tree). */
export interface MigrationState {
	/** The id of the last entry that was accepted (a skipped line does not break the chain). */
	previousId: string | null;
}

/**
 * Upgrades one raw entry from `version` to the latest. Version 1 entries form
 * one chain in file order and get ids from their line numbers; a compaction's
 * `firstKeptEntryIndex` (an index into the file's lines, the header being 0)
 * becomes the id of the entry on that line.
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
		if (raw.type === "compaction" && typeof raw.firstKeptEntryIndex === "number") {
			raw.firstKeptEntryId = v1EntryId(raw.firstKeptEntryIndex + 1);
		}
	}
	if (version < 3 && raw.type === "message") {
		const message = raw.message as Record<string, unknown> | null;
		if (message !== null && typeof message === "object" && message.role === "hookMessage") {
			message.role = "custom";
		}
	}
}

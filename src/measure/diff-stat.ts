/**
 * `diff --stat`: one line a changed session, as `git diff --stat` has one a
 * file: the session, the sections and how many messages changed (the tool
 * results gone from whole to stub or back counted apart), and the whole
 * context's token change; the summary follows. A corpus reads as a table
 * that fits a screen before any text is shown.
 */
import { escapeLine, paint } from "../text/terminal.js";
import type { SessionDiff } from "./compare.js";
import { describeMessage, isStubChange, signed } from "./diff-report.js";

/** The widest a session's path is shown; a longer one keeps its end. */
const FILE_WIDTH = 64;

/** What changed in one session, in a few words: `harness, tools, 1 message, 2 results whole → stub`. */
export function changedParts(result: SessionDiff): string {
	const parts: string[] = [];
	const stubs = new Map<string, number>();
	let messages = 0;
	for (const c of result.changed) {
		if (!c.section.startsWith("message ")) parts.push(c.section);
		else if (!isStubChange(c.framing)) messages++;
		else {
			const way = describeMessage(c.framing).replace(/^a tool result, /, "");
			stubs.set(way, (stubs.get(way) ?? 0) + 1);
		}
	}
	if (messages > 0) parts.push(`${messages} message${messages === 1 ? "" : "s"}`);
	for (const [way, n] of stubs) parts.push(`${n} result${n === 1 ? "" : "s"} ${way}`);
	return parts.join(", ");
}

/** A session's path in at most `width` characters: its end, where the names differ. */
function shortened(file: string, width = FILE_WIDTH): string {
	return file.length <= width ? file : `…${file.slice(file.length - width + 1)}`;
}

/**
 * The changed sessions of `results`, a line each, in columns: the file, what
 * changed, the token change (right-aligned). Unchanged and failed sessions
 * are left to the summary (and a failure to stderr).
 */
export function formatStat(results: readonly SessionDiff[], color: boolean): string {
	const c = paint(color);
	const rows = results
		.filter((r) => r.error === undefined && r.changed.length > 0)
		.map((r) => ({
			file: shortened(escapeLine(r.file)),
			parts: changedParts(r),
			delta: r.tokenDelta,
		}));
	if (rows.length === 0) return "";
	const width = (f: (row: (typeof rows)[number]) => string) =>
		rows.reduce((w, row) => Math.max(w, f(row).length), 0);
	const files = width((r) => r.file);
	const parts = width((r) => r.parts);
	const deltas = width((r) => signed(r.delta));
	const lines = rows.map((r) => {
		const delta = signed(r.delta).padStart(deltas);
		const shown = r.delta > 0 ? c.green(delta) : r.delta < 0 ? c.red(delta) : delta;
		return ` ${r.file.padEnd(files)} | ${r.parts.padEnd(parts)} | ${shown} tokens`;
	});
	return `${lines.join("\n")}\n\n`;
}

/**
 * `diff`'s text output over a corpus: a change a template makes usually
 * shows the same hunk in every session it touches, so identical hunks are
 * printed once, with the number of sessions and the first few of their
 * names. A hunk is a part's unified diff; sections group by name, message
 * framings by their diff whatever the message's index. A corpus of thousands
 * reads as the few changes the templates made. A tool result gone from whole
 * to stub or back is its heading line alone, after the hunks, unless the
 * output is full.
 */
import { escapeControl, paint } from "../text/terminal.js";
import type { ChangedPart, SessionDiff } from "./compare.js";
import { coloredDiff, describeMessage, isStubChange, signed } from "./diff-report.js";

/** Sessions named in a group's heading before "and N more". */
export const NAMED_SESSIONS = 3;

/** One hunk and the sessions that show it. */
export interface HunkGroup {
	/** A section name, or "message" for a framing (whatever its index). */
	part: string;
	diff: string;
	/** The sessions' files, in the order they were compared. */
	files: string[];
	/** The part's token change in each of them (to − from). */
	deltas: number[];
	/** For a framing: the message's index in each of them (index for index with `files`). */
	messages: number[];
	/** For a framing: the template each side framed the message with. */
	framing?: ChangedPart["framing"];
}

/** The hunks of `results`, identical ones grouped; most sessions first, then first seen. */
export function groupHunks(results: readonly SessionDiff[]): HunkGroup[] {
	const groups = new Map<string, HunkGroup>();
	for (const r of results) {
		if (r.error !== undefined) continue;
		for (const c of r.changed) {
			const part = c.section.startsWith("message ") ? "message" : c.section;
			const key = `${part}\0${describeMessage(c.framing)}\0${c.diff}`;
			let group = groups.get(key);
			if (group === undefined) {
				group = { part, diff: c.diff, files: [], deltas: [], messages: [] };
				if (c.framing !== undefined) group.framing = c.framing;
				groups.set(key, group);
			}
			if (group.files.at(-1) !== r.file || part === "message") {
				group.files.push(r.file);
				group.deltas.push(c.tokensTo - c.tokensFrom);
				if (part === "message") group.messages.push(Number(c.section.slice("message ".length)));
			}
		}
	}
	return [...groups.values()]
		.map((g, order) => ({ g, order, sessions: new Set(g.files).size }))
		.sort((a, b) => b.sessions - a.sessions || a.order - b.order)
		.map(({ g }) => g);
}

/** `a, b, c and 18 more`: the first few names of a list. */
export function namedFew(names: readonly string[], few = NAMED_SESSIONS): string {
	const shown = names.slice(0, few).join(", ");
	return names.length > few ? `${shown} and ${names.length - few} more` : shown;
}

/** Each session of a framing's group, with the messages that show it: `a.jsonl (messages 3, 7)`. */
function withMessages(g: HunkGroup): string[] {
	const byFile = new Map<string, number[]>();
	g.files.forEach((file, k) => {
		const list = byFile.get(file);
		if (list === undefined) byFile.set(file, [g.messages[k] as number]);
		else list.push(g.messages[k] as number);
	});
	return [...byFile].map(
		([file, ms]) => `${file} (message${ms.length === 1 ? "" : "s"} ${ms.join(", ")})`,
	);
}

/**
 * Every group as text: a heading (part, sessions, tokens), then the hunk
 * once; the stub changes' headings last, as one block, without their hunks
 * unless `full`.
 */
export function formatGroups(groups: readonly HunkGroup[], color: boolean, full = false): string {
	const c = paint(color);
	const out: string[] = [];
	const stubs: string[] = [];
	for (const g of groups) {
		const sessions = [...new Set(g.files)];
		const times = g.files.length > sessions.length ? ` (${g.files.length} messages)` : "";
		// A framing's group holds a delta per message: folded, never spread into arguments.
		const low = g.deltas.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
		const high = g.deltas.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
		const tokens =
			low === high ? `${signed(low)} tokens` : `${signed(low)} to ${signed(high)} tokens`;
		const what = g.part === "message" ? describeMessage(g.framing) : g.part;
		const names = escapeControl(
			namedFew(g.part === "message" ? withMessages(g) : sessions),
		).replace(/\n/g, "\\n");
		const heading = c.bold(
			`═══ ${what}: ${tokens}, in ${sessions.length} session${sessions.length === 1 ? "" : "s"}${times}: ${names}`,
		);
		if (!full && g.part === "message" && isStubChange(g.framing)) {
			stubs.push(heading);
			continue;
		}
		out.push(heading, coloredDiff(g.diff, c), "");
	}
	if (stubs.length > 0) out.push(...stubs, "");
	return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

/**
 * A reload that extends the branch costs what was appended: the projection
 * of a kept-open session visits the new entries only and builds their
 * messages only, at any session length (counted, never timed), and gives
 * what a fresh projection gives. Anything else (another branch, a new
 * compaction or collapse summary) is projected afresh. A repaired tree is
 * extended like a clean one; an append that changes an earlier entry marks
 * the tree rewired, for its owner to read afresh.
 */
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OpenLog } from "../../src/log/open-log.js";
import { type Projection, projectBranch } from "../../src/session/project.js";
import { SessionTree } from "../../src/session/tree.js";
import { assistant, compactContext, entry, HEADER, user, writeLog } from "../support/session.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const frame = (summary: string) => ({ text: summary, diagnostics: [] });

/** A kept-open log: `project(previous?)` reads what was appended and projects. */
function open(path: string, retainBytes?: number) {
	const options = retainBytes === undefined ? {} : { retainBytes };
	const log = new OpenLog(path, (entries, name) => new SessionTree(entries, name), options);
	log.readSync();
	return {
		tree: log.sink,
		project: (previous?: Projection, leaf?: string) => {
			expect(log.readSync()).toBe(true);
			return projectBranch(log.sink, log.header, frame, leaf, previous);
		},
	};
}

/** The projection as data: what a caller can observe. */
const observed = (p: Projection) =>
	JSON.stringify([p.leafId, p.messages, p.entryIds, p.model, p.thinkingLevel, p.diagnostics]);

/** A fresh projection of the file as it is now. */
const fresh = (path: string, leaf?: string) => observed(open(path).project(undefined, leaf));

/** A linear log of `turns` user/assistant pairs; the last id is `a{turns - 1}`. */
function linearLog(turns: number): string {
	const lines: unknown[] = [HEADER];
	let parent: string | null = null;
	for (let t = 0; t < turns; t++) {
		lines.push(user(`u${t}`, parent, `question ${t}`));
		lines.push(assistant(`a${t}`, `u${t}`, `answer ${t}`));
		parent = `a${t}`;
	}
	return writeLog(lines);
}

describe("a reload after an append to the leaf", () => {
	it("visits and builds only the appended entries, at 10x the length alike", () => {
		const work = [100, 1000].map((turns) => {
			const path = linearLog(turns);
			const session = open(path);
			const first = session.project();
			const leaf = `a${turns - 1}`;
			appendFileSync(path, line(user("n1", leaf, "next")));
			appendFileSync(path, line(assistant("n2", "n1", "reply")));
			appendFileSync(
				path,
				line(entry("n3", "n2", { type: "custom_message", customType: "note", content: "hi" })),
			);
			const next = session.project(first);
			expect(observed(next)).toBe(fresh(path));
			expect(next.shared).toBe(2 * turns);
			return { full: first.stats, reload: next.stats };
		});
		const [small, large] = work as [(typeof work)[0], (typeof work)[0]];
		expect(large.full.visited).toBe(10 * small.full.visited);
		expect(small.reload).toEqual({ visited: 3, built: 3 });
		expect(large.reload).toEqual({ visited: 3, built: 3 });
	});

	it("shares the earlier messages and never changes the arrays handed out", () => {
		const path = linearLog(20);
		const session = open(path);
		const first = session.project();
		const handed = first.messages;
		const length = handed.length;
		appendFileSync(path, line(user("n1", "a19", "next")));
		const next = session.project(first);
		expect(handed).toHaveLength(length);
		expect(next.messages).toHaveLength(length + 1);
		for (let i = 0; i < length; i++) expect(next.messages[i]).toBe(handed[i]);
		expect(Object.isFrozen(next.messages[length])).toBe(true);
		// Nothing appended: the same arrays again.
		const same = session.project(next);
		expect(same.stats).toEqual({ visited: 0, built: 0 });
		expect(same.messages).toBe(next.messages);
	});

	it("leaves a projection that was never read intact when a later one grows past it", () => {
		const path = linearLog(5);
		const session = open(path);
		const first = session.project();
		appendFileSync(path, line(user("b1", "a4", "one way")));
		const left = session.project(first);
		// Another branch from the same point, extending `first` again.
		appendFileSync(path, line(user("b2", "a4", "another way")));
		const right = session.project(first);
		expect(right.shared).toBe(10);
		expect(observed(left)).toBe(fresh(path, "b1"));
		expect(observed(right)).toBe(fresh(path, "b2"));
	});
});

describe("a compacted session", () => {
	it("extends under the same compaction (what lies before it was let go), and reads back when lean", () => {
		const path = linearLog(10);
		const compaction = { type: "compaction", summary: "so far", firstKeptEntryId: "u8" };
		appendFileSync(path, line(entry("c", "a9", compaction)));
		appendFileSync(path, line(user("n1", "c", "after")));
		for (const [retainBytes, shared] of [
			[undefined, 6],
			[0, 0],
		] as const) {
			const session = open(path, retainBytes);
			const first = session.project();
			appendFileSync(path, line(user(`m${shared}`, first.leafId ?? "", "next")));
			const next = session.project(first);
			expect(next.shared).toBe(shared);
			expect(observed(next)).toBe(fresh(path));
		}
	});
});

describe("a reload that does not extend the branch", () => {
	/** Each case appends what it needs and names the leaf to load (undefined: the default one). */
	const appending =
		(value: unknown) =>
		(path: string): undefined => {
			appendFileSync(path, line(value));
			return undefined;
		};
	const compaction = { type: "compaction", summary: "so far", firstKeptEntryId: "u8" };
	const cases: [string, (path: string) => string | undefined][] = [
		["another branch", appending(user("x", "u3", "fork"))],
		["a new compaction", appending(entry("c", "a9", { ...compaction, tokensBefore: 10 }))],
		["a new collapse summary", appending(compactContext("k", "a9", "collapsed"))],
		["a leaf asked for up the branch", () => "u5"],
	];
	for (const [name, change] of cases) {
		it(`is projected afresh: ${name}`, () => {
			const path = linearLog(10);
			const session = open(path);
			const first = session.project();
			const leaf = change(path);
			const next = session.project(first, leaf);
			expect(next.shared).toBe(0);
			expect(observed(next)).toBe(fresh(path, leaf));
		});
	}

	it("marks the tree rewired when an append reuses an earlier id or brings an orphan's parent", () => {
		const path = linearLog(4);
		const session = open(path);
		session.project();
		appendFileSync(path, line(user("n1", "a3", "next")));
		session.project();
		expect(session.tree.rewired).toBe(false);
		appendFileSync(path, line(user("u1", "n1", "the same id again")));
		session.project();
		expect(session.tree.rewired).toBe(true);

		const orphaned = linearLog(2);
		appendFileSync(orphaned, line(user("o1", "later", "an orphan")));
		const other = open(orphaned);
		other.project();
		expect(other.tree.repaired).toBe(true);
		appendFileSync(orphaned, line(user("later", "o1", "the orphan's parent")));
		other.project();
		expect(other.tree.rewired).toBe(true);
	});

	it("extends a repaired tree as a clean one (the repair is kept)", () => {
		const path = linearLog(4);
		appendFileSync(path, line(user("o1", "missing", "an orphan")));
		appendFileSync(path, line(user("o2", "o1", "on the orphan")));
		const session = open(path);
		const first = session.project();
		expect(session.tree.repaired).toBe(true);
		appendFileSync(path, line(assistant("o3", "o2", "an answer")));
		const next = session.project(first);
		expect(next.shared).toBe(first.messages.length);
		expect(next.stats.visited).toBe(1);
		expect(session.tree.rewired).toBe(false);
		expect(observed(next)).toBe(fresh(path));
	});
});

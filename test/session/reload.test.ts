/**
 * Incremental reload and bounded memory: a kept-open session that reads only
 * appended bytes, and a tree that lets entries go and reads them back, must
 * give exactly what a fresh load gives.
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { OpenSessions } from "../../src/service/sessions.js";
import {
	assistant,
	compactContext,
	entry,
	HEADER,
	metadata,
	user,
	writeLog,
} from "../support/session.js";

const fresh = (path: string, options = {}) =>
	JSON.stringify(new ContextService(options).loadSync(path));
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Loads through `service`, checks it equals a fresh load, returns the bundle. */
function same(service: ContextService, path: string) {
	const bundle = service.loadSync(path);
	expect(JSON.stringify(bundle)).toBe(fresh(path));
	return bundle;
}

describe("incremental reload", () => {
	it("equals a fresh load after each kind of append", () => {
		const path = writeLog([
			HEADER,
			metadata("m", null, { tools: ["read"] }),
			user("u1", null, "one"),
		]);
		const service = new ContextService();
		same(service, path);
		const appends = [
			assistant("a1", "u1", "two"),
			user("u2", "a1", "three"),
			entry("k1", "u2", {
				type: "compaction",
				summary: "S1",
				firstKeptEntryId: "u2",
				tokensBefore: 5,
			}),
			assistant("a2", "k1", "four"),
			assistant("b1", "u2", "a branch from before the compaction"),
			entry("bs", "b1", { type: "branch_summary", fromId: "a2", summary: "left the other branch" }),
			metadata("m2", null, { collapseNodeId: "n1", memory: "remember" }),
			compactContext("c1", "bs", "goal: g\nnext steps: n"),
			entry("mc", "c1", { type: "model_change", provider: "p", modelId: "m" }),
			compactContext("c2", "mc", "goal: rolled"),
			user("u3", "c2", "five"),
		];
		for (const value of appends) {
			appendFileSync(path, line(value));
			same(service, path);
		}
		const last = service.loadSync(path);
		expect(last.messages.filter((m) => m.role === "collapse_context")).toHaveLength(1);
		expect(last.meta.leafId).toBe("u3");
	});

	it("hangs an appended entry from an invalid one's parent, and reads again when an orphan's parent comes invalid", () => {
		const invalid = (id: string, parentId: string) => ({
			...user(id, parentId, "x"),
			message: { role: "user" },
		});
		const path = writeLog([HEADER, user("u1", null, "one"), invalid("x1", "u1")]);
		const service = new ContextService();
		same(service, path);
		appendFileSync(path, line(user("u2", "x1", "two")));
		expect(same(service, path).messages).toHaveLength(2);
		// An orphan whose parent is appended later as an invalid entry: a fresh read hangs it from that one's parent.
		appendFileSync(path, line(user("u3", "x2", "three")));
		expect(same(service, path).messages).toHaveLength(1);
		appendFileSync(path, line(invalid("x2", "u2")));
		const after = same(service, path);
		expect(after.messages).toHaveLength(3);
		// ...and an entry appended with the id an invalid one's children were hung through.
		appendFileSync(path, line(user("x1", null, "the valid x1")) + line(user("u4", "u2", "four")));
		expect(JSON.stringify(same(service, path).messages)).toContain("the valid x1");
	});

	it("reads again when the id a line of invalid entries ends at comes, or a link is given again", () => {
		const invalid = (id: string, parentId: string) => ({
			...user(id, parentId, "x"),
			message: { role: "user" },
		});
		const missing = writeLog([HEADER, invalid("L", "P"), user("u1", "L", "one")]);
		const service = new ContextService();
		expect(same(service, missing).meta.diagnostics.map((d) => d.code)).toContain("unknown_parent");
		appendFileSync(missing, line(user("P", null, "parent")) + line(user("u2", "u1", "two")));
		expect(same(service, missing).entryIds).toEqual(["P", "u1", "u2"]);
		const twice = writeLog([
			HEADER,
			user("p1", null, "p1"),
			user("p2", null, "p2"),
			invalid("L", "p1"),
			user("u1", "L", "one"),
		]);
		same(service, twice);
		appendFileSync(twice, line(invalid("L", "p2")));
		expect(same(service, twice).entryIds).toEqual(["p2", "u1"]);
	});

	it("reads nothing new when nothing was appended, and still equals a fresh load", () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const service = new ContextService();
		same(service, path);
		same(service, path);
	});

	it("picks up a torn last line once the writer completes it", () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const service = new ContextService();
		const full = line(assistant("a1", "u1", "two"));
		appendFileSync(path, full.slice(0, 20));
		const torn = same(service, path);
		expect(torn.meta.diagnostics.map((d) => d.code)).toEqual(["torn_line"]);
		appendFileSync(path, full.slice(20));
		const whole = same(service, path);
		expect(whole.meta.diagnostics).toEqual([]);
		expect(whole.messages).toHaveLength(2);
	});

	it("treats a last line whose newline comes later as one line", () => {
		const path = writeLog(`${line(HEADER)}${JSON.stringify(user("u1", null, "one"))}`);
		const service = new ContextService();
		same(service, path);
		appendFileSync(path, `\n${line(assistant("a1", "u1", "two"))}`);
		const bundle = same(service, path);
		expect(bundle.messages).toHaveLength(2);
	});

	it("reads the file again when bytes appended continue a last line that had no newline", () => {
		for (const strict of [false, true]) {
			const a = JSON.stringify(user("a", null, "A"));
			const path = writeLog(`${line(HEADER)}${a}`);
			const service = new ContextService({ strict });
			same(service, path);
			appendFileSync(path, line(user("b", "a", "B"))); // "{A}{B}": one bad line now
			if (!strict) {
				expect(JSON.stringify(service.loadSync(path))).toBe(fresh(path, { strict }));
				expect(service.loadSync(path).messages).toHaveLength(0);
			} else {
				expect(() => service.loadSync(path)).toThrow(
					/:2:\d+: not valid JSON: two JSON values on one line/,
				);
			}
		}
		const spaces = writeLog(`${line(HEADER)}  `);
		const service = new ContextService();
		same(service, spaces);
		appendFileSync(spaces, line(user("c", null, "C"))); // "  {C}": a good line
		expect(same(service, spaces).messages).toHaveLength(1);
	});

	it("keeps version-1 ids and chains right across appends", () => {
		const v1 = { type: "session", id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" };
		const message = (text: string) => ({
			type: "message",
			timestamp: "2025-01-01T00:00:01.000Z",
			message: { role: "user", content: text, timestamp: 1 },
		});
		const path = writeLog([v1, message("one")]);
		const service = new ContextService();
		same(service, path);
		appendFileSync(path, line(message("two")));
		appendFileSync(
			path,
			line({
				type: "compaction",
				timestamp: "2025-01-01T00:00:02.000Z",
				summary: "S",
				firstKeptEntryIndex: 2,
				tokensBefore: 1,
			}),
		);
		const bundle = same(service, path);
		expect(bundle.meta.leafId).toBe("L4");
		expect(bundle.messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
	});

	it("reads the whole file again when it was truncated or replaced", () => {
		const path = writeLog([HEADER, user("u1", null, "one"), assistant("a1", "u1", "two")]);
		const service = new ContextService();
		same(service, path);
		writeFileSync(path, line(HEADER) + line(user("x1", null, "other")));
		expect(same(service, path).messages).toHaveLength(1);
		const replacement = writeLog([
			HEADER,
			user("y1", null, "replaced, longer"),
			assistant("y2", "y1", "yes"),
		]);
		renameSync(replacement, path);
		expect(same(service, path).meta.leafId).toBe("y2");
	});

	it("forgets a session whose append was bad, and fails again until it is fixed", () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const service = new ContextService({ strict: true });
		same(service, path);
		appendFileSync(path, "{not json}\n");
		expect(() => service.loadSync(path)).toThrow(/not valid JSON/);
		expect(() => service.loadSync(path)).toThrow(/not valid JSON/);
	});
});

describe("bounded memory", () => {
	/** A log with compactions and branches, big enough to exceed a tiny budget many times. */
	function bigLog(): string {
		const values: unknown[] = [HEADER, metadata("m", null, { tools: ["bash"] })];
		let parent: string | null = null;
		for (let i = 0; i < 3000; i++) {
			const id = `e${i}`;
			if (i % 700 === 699) {
				values.push(
					entry(id, parent, {
						type: "compaction",
						summary: `S${i}`,
						firstKeptEntryId: `e${i - 50}`,
						tokensBefore: i,
					}),
				);
			} else if (i % 3 === 0) {
				values.push(user(id, parent, `question ${i} ${"x".repeat(200)}`));
			} else {
				values.push(assistant(id, parent, `answer ${i} ${"y".repeat(200)}`));
			}
			parent = i % 500 === 250 ? `e${i - 10}` : id; // now and then, a branch
		}
		values.push(compactContext("cc", parent, "goal: the end"));
		return writeLog(values);
	}

	it("gives the same bundle when entries are let go and read back", () => {
		const path = bigLog();
		expect(fresh(path, { retainBytes: 4096 })).toBe(fresh(path));
		for (const leaf of ["e260", "e1400", "e2999"]) {
			const tight = new ContextService({ retainBytes: 4096 }).loadSync(path, { leaf });
			expect(JSON.stringify(tight)).toBe(
				JSON.stringify(new ContextService().loadSync(path, { leaf })),
			);
		}
	});

	it("reloads incrementally with a tiny budget, equal to a fresh load", () => {
		const path = bigLog();
		const service = new ContextService({ retainBytes: 4096 });
		service.loadSync(path);
		appendFileSync(path, line(user("late", "cc", "after all that")));
		expect(JSON.stringify(service.loadSync(path))).toBe(fresh(path));
	});

	it("reads back version-1 entries with their migrated ids", () => {
		const path = join(import.meta.dirname, "..", "fixtures/sessions/v1-linear.jsonl");
		expect(fresh(path, { retainBytes: 1 })).toBe(fresh(path));
		expect(readFileSync(path, "utf8")).not.toContain('"parentId"');
	});
});

describe("open sessions", () => {
	it("keeps at most maxOpenSessions open, the least recently loaded out first", () => {
		const paths = ["a", "b", "c"].map((name) => writeLog([HEADER, user("u", null, name)], name));
		const sessions = new OpenSessions({}, 2);
		for (const path of paths) sessions.readSync(path);
		expect(sessions.files()).toEqual([paths[1], paths[2]]);
		sessions.readSync(paths[1] as string);
		expect(sessions.files()).toEqual([paths[2], paths[1]]);
		const service = new ContextService({ maxOpenSessions: 2 });
		for (const path of [...paths, ...paths]) {
			expect(JSON.stringify(service.loadSync(path))).toBe(fresh(path));
		}
	});
});

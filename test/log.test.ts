/**
 * The log reader against the session-log contract: every row of its "Bad
 * input" table, lenient mode, migrations of older versions, the leaf rule,
 * the projection of each entry kind and compactions. Logs are written here.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError, type ContextMessage } from "../src/index.js";
import { assistant, entry, HEADER, load, metadata, user, writeLog } from "./support/session.js";

const ROOT = join(import.meta.dirname, "..");

/** The ContextError that loading `path` throws, strict unless told (fails the test if it loads). */
function errorOf(path: string, options: Parameters<typeof load>[1] = {}): ContextError {
	try {
		load(path, { strict: true, ...options });
	} catch (error) {
		if (error instanceof ContextError) return error;
		throw error;
	}
	throw new Error(`expected loading ${path} to fail`);
}

/** The text of each message, for compact assertions on the message order. */
function texts(messages: readonly ContextMessage[]): string[] {
	return messages.map((m) => {
		if ("summary" in m) return `[${m.role}] ${m.summary}`;
		if ("content" in m) {
			const content = m.content as unknown;
			if (typeof content === "string") return content;
			if (Array.isArray(content)) return content.map((b: { text?: string }) => b.text).join("");
		}
		return `[${m.role}]`;
	});
}

/** A raw message entry line, for logs that need exact JSON (older versions, bad lines). */
const raw = (value: unknown) => JSON.stringify(value);

const compaction = (
	id: string,
	parentId: string | null,
	summary: string,
	firstKeptEntryId: string,
	tokensBefore = 1234,
) => entry(id, parentId, { type: "compaction", summary, firstKeptEntryId, tokensBefore });

interface ChildResult {
	loaded: boolean;
	isContextError?: boolean;
	code?: string;
	file?: string;
	line?: number;
	message?: string;
	leafId?: string | null;
}

/**
 * Loads `path` in a separate node process with a small heap and a time limit,
 * so a reader that loops forever fails this test instead of hanging or
 * crashing the test run. The sources are loaded through vite's module runner.
 */
function loadInChild(path: string): {
	result: ChildResult | undefined;
	ms: number;
	detail: string;
} {
	const script = `
import { runnerImport } from "vite";
const { module } = await runnerImport(${JSON.stringify(join(ROOT, "src/index.ts"))}, {
	root: ${JSON.stringify(ROOT)},
	configFile: false,
	logLevel: "silent",
});
const t0 = performance.now();
let out;
try {
	const bundle = new module.ContextService({ strict: true }).loadSync(process.env.SESSION_LOG);
	out = { loaded: true, leafId: bundle.meta.leafId };
} catch (e) {
	out = {
		loaded: false,
		isContextError: e instanceof module.ContextError,
		code: e?.code,
		file: e?.file,
		line: e?.line,
		message: String(e?.message),
	};
}
out.ms = performance.now() - t0;
process.stdout.write("RESULT " + JSON.stringify(out) + "\\n");
`;
	const started = Date.now();
	const child = spawnSync(
		process.execPath,
		["--max-old-space-size=256", "--input-type=module", "-e", script],
		{
			cwd: ROOT,
			env: { ...process.env, SESSION_LOG: path },
			encoding: "utf8",
			timeout: 15_000,
		},
	);
	const ms = Date.now() - started;
	const line = child.stdout?.split("\n").find((l) => l.startsWith("RESULT "));
	const detail = `status ${child.status}, signal ${child.signal}, stderr: ${(child.stderr ?? "").slice(0, 500)}`;
	return {
		result: line === undefined ? undefined : (JSON.parse(line.slice(7)) as ChildResult),
		ms,
		detail,
	};
}

describe("bad input: a line that is not JSON", () => {
	it("fails with bad_json, the file and the line number", () => {
		const path = writeLog([HEADER, user("u1", null, "hi"), "{not json", user("u2", "u1", "x")]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_json");
		expect(error.file).toBe(path);
		expect(error.line).toBe(3);
		expect(error.message).toContain(`${path}:3`);
		expect(error.message).toMatch(/not valid JSON/);
	});

	it("fails on a JSON line that is not an object", () => {
		const path = writeLog([HEADER, user("u1", null, "hi"), "[1,2,3]"]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_entry");
		expect(error.line).toBe(3);
		expect(error.file).toBe(path);
	});
});

describe("bad input: a line that is not a valid entry", () => {
	it("names the missing message of a message entry", () => {
		const bad = entry("u2", "u1", { type: "message" });
		const path = writeLog([HEADER, user("u1", null, "hi"), bad]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_entry");
		expect(error.file).toBe(path);
		expect(error.line).toBe(3);
		expect(error.reason).toMatch(/\bmessage\b/);
	});

	it("names a parentId of the wrong type", () => {
		const bad = { ...user("u2", null, "x"), parentId: 7 };
		const path = writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "ok"), bad]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_entry");
		expect(error.file).toBe(path);
		expect(error.line).toBe(4);
		expect(error.reason).toContain("parentId");
	});

	it("names a compaction summary that is a number", () => {
		const bad = entry("c1", "u1", { type: "compaction", summary: 42, firstKeptEntryId: "u1" });
		const path = writeLog([HEADER, user("u1", null, "hi"), bad]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_entry");
		expect(error.file).toBe(path);
		expect(error.line).toBe(3);
		expect(error.reason).toContain("summary");
	});

	it("names a nested field path (the message's content)", () => {
		const bad = entry("u2", "u1", { type: "message", message: { role: "user", content: 5 } });
		const path = writeLog([HEADER, user("u1", null, "hi"), bad]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_entry");
		expect(error.line).toBe(3);
		expect(error.reason).toContain("message.content");
	});
});

describe("bad input: a torn last line", () => {
	const good = [
		HEADER,
		user("u1", null, "one"),
		assistant("a1", "u1", "two"),
		user("u2", "a1", "three"),
	];
	const text = `${good.map(raw).join("\n")}\n`;

	it("skips the torn line with a torn_line warning and loses nothing else", () => {
		const path = writeLog(`${text}{"type":"message","id":"a2","parentId":"u2","mess`);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["one", "two", "three"]);
		expect(bundle.meta.leafId).toBe("u2");
		expect(bundle.meta.entryCount).toBe(3);
		const torn = bundle.meta.diagnostics.filter((d) => d.code === "torn_line");
		expect(torn).toHaveLength(1);
		expect(torn[0]).toMatchObject({ severity: "warning", code: "torn_line", line: 5, file: path });
	});

	it("skips a torn line that ends inside a multi-byte character", () => {
		const path = writeLog("");
		const whole = Buffer.from(`${text}${raw(assistant("a2", "u2", "café"))}`);
		// Cut inside the two bytes of "é".
		const cut = whole.subarray(0, whole.indexOf(Buffer.from("é")) + 1);
		writeFileSync(path, cut);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["one", "two", "three"]);
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({ code: "torn_line", line: 5, severity: "warning" }),
		);
	});

	it("accepts a last line without a newline when it is valid JSON", () => {
		const path = writeLog(`${text}${raw(assistant("a2", "u2", "four"))}`);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["one", "two", "three", "four"]);
		expect(bundle.meta.leafId).toBe("a2");
		expect(bundle.meta.diagnostics.filter((d) => d.code === "torn_line")).toEqual([]);
	});

	it("is an error, not a torn line, when a bad line is followed by a newline", () => {
		const path = writeLog(`${text}{"type":"message","id":"a2"\n`);
		const error = errorOf(path);
		expect(error.code).toBe("bad_json");
		expect(error.line).toBe(5);
	});
});

describe("bad input: a duplicate id", () => {
	it("fails with duplicate_id naming both lines", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			assistant("a1", "u1", "ok"),
			user("u2", "a1", "more"),
			assistant("a1", "u2", "again"),
		]);
		const error = errorOf(path);
		expect(error.code).toBe("duplicate_id");
		expect(error.file).toBe(path);
		expect(error.line).toBe(5);
		expect(error.reason).toContain('"a1"');
		expect(error.reason).toMatch(/\b3\b/);
		expect(error.reason).toMatch(/\b5\b/);
	});
});

describe("bad input: a parentId that names no entry", () => {
	it("fails with unknown_parent naming the line", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			assistant("a1", "u1", "ok"),
			user("u2", "ghost", "orphan"),
			assistant("a2", "u2", "reply"),
		]);
		const error = errorOf(path);
		expect(error.code).toBe("unknown_parent");
		expect(error.file).toBe(path);
		expect(error.line).toBe(4);
		expect(error.reason).toContain("ghost");
	});
});

describe("bad input: a cycle in parentId", () => {
	it("fails with parent_cycle naming the entries of a 2-cycle made by a forward reference", () => {
		const path = writeLog([
			HEADER,
			user("root", null, "start"),
			user("loop-a", "loop-b", "a"),
			assistant("loop-b", "loop-a", "b"),
		]);
		const { result, ms, detail } = loadInChild(path);
		expect(result, detail).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
		});
		expect([3, 4]).toContain(result?.line);
		expect(result?.message).toContain("loop-a");
		expect(result?.message).toContain("loop-b");
		expect(ms).toBeLessThan(15_000);
	}, 30_000);

	it("fails with parent_cycle on the same 2-cycle in this process, quickly", () => {
		const path = writeLog([
			HEADER,
			user("root", null, "start"),
			user("loop-a", "loop-b", "a"),
			assistant("loop-b", "loop-a", "b"),
		]);
		const started = performance.now();
		const error = errorOf(path);
		expect(performance.now() - started).toBeLessThan(2000);
		expect(error.code).toBe("parent_cycle");
		expect(error.file).toBe(path);
		expect(error.reason).toContain("loop-a");
		expect(error.reason).toContain("loop-b");
	});

	it("fails with parent_cycle on a self-loop that is the only entry", () => {
		const path = writeLog([HEADER, user("self", "self", "me")]);
		const { result, detail } = loadInChild(path);
		expect(result, detail).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
			line: 2,
		});
		expect(result?.message).toContain("self");
	}, 30_000);

	it("fails with parent_cycle on a self-loop after a root entry (never a hang)", () => {
		const path = writeLog([HEADER, user("root", null, "start"), user("self", "self", "me")]);
		const { result, detail } = loadInChild(path);
		expect(result, `the load did not finish: ${detail}`).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
			line: 3,
		});
		expect(result?.message).toContain("self");
	}, 30_000);
});

describe("bad input: a firstKeptEntryId that is not on the branch", () => {
	it("warns and keeps the summary and what follows the compaction", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "old"),
			assistant("a1", "u1", "old reply"),
			assistant("side", "u1", "another branch"),
			compaction("c1", "a1", "the story so far", "side"),
			user("u2", "c1", "after"),
			assistant("a2", "u2", "after reply"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual([
			"[compactionSummary] the story so far",
			"after",
			"after reply",
		]);
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({
				severity: "warning",
				code: "first_kept_not_on_branch",
				line: 5,
				file: path,
			}),
		);
	});

	it("warns when firstKeptEntryId names no entry at all", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "old"),
			compaction("c1", "u1", "summary", "nowhere"),
			user("u2", "c1", "after"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["[compactionSummary] summary", "after"]);
		expect(bundle.meta.diagnostics.map((d) => d.code)).toContain("first_kept_not_on_branch");
	});
});

describe("bad input: the header", () => {
	it("fails with missing_header when line 1 is an entry", () => {
		const path = writeLog([user("u1", null, "hi"), HEADER]);
		const error = errorOf(path);
		expect(error.code).toBe("missing_header");
		expect(error.file).toBe(path);
		expect(error.line).toBe(1);
	});

	it("tolerates blank lines before the header with a warning, strict or not", () => {
		const path = writeLog(`\n \n${raw(HEADER)}\n${raw(user("u1", null, "hi"))}\n`);
		for (const strict of [false, true]) {
			const bundle = load(path, { strict });
			expect(texts(bundle.messages)).toEqual(["hi"]);
			expect(bundle.meta.diagnostics).toEqual([
				expect.objectContaining({ code: "blank_before_header", file: path, line: 1 }),
			]);
		}
	});

	it("fails with missing_header on an empty file", () => {
		const path = writeLog("");
		const error = errorOf(path);
		expect(error.code).toBe("missing_header");
		expect(error.file).toBe(path);
		expect(error.line).toBe(1);
	});

	it("fails with bad_header on a header without cwd", () => {
		const { cwd: _cwd, ...noCwd } = HEADER;
		const path = writeLog([noCwd, user("u1", null, "hi")]);
		const error = errorOf(path);
		expect(error.code).toBe("bad_header");
		expect(error.file).toBe(path);
		expect(error.line).toBe(1);
		expect(error.reason).toContain("cwd");
	});

	it("fails with unsupported_version on version 4", () => {
		const path = writeLog([{ ...HEADER, version: 4 }, user("u1", null, "hi")]);
		const error = errorOf(path);
		expect(error.code).toBe("unsupported_version");
		expect(error.file).toBe(path);
		expect(error.line).toBe(1);
		expect(error.reason).toContain("4");
	});

	it("does not salvage a missing header in lenient mode", () => {
		const path = writeLog([user("u1", null, "hi")]);
		expect(errorOf(path, { lenient: true }).code).toBe("missing_header");
	});
});

describe("bad input: invalid UTF-8", () => {
	it("fails with bad_utf8 and the line of a middle line", () => {
		const path = writeLog("");
		writeFileSync(
			path,
			Buffer.concat([
				Buffer.from(`${raw(HEADER)}\n${raw(user("u1", null, "hi"))}\n`),
				Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0xff, 0xfe, 0x7d, 0x0a]),
				Buffer.from(`${raw(assistant("a1", "u1", "ok"))}\n`),
			]),
		);
		const error = errorOf(path);
		expect(error.code).toBe("bad_utf8");
		expect(error.file).toBe(path);
		expect(error.line).toBe(3);
	});
});

describe("an unknown entry type", () => {
	it("loads, stays out of the context and is reported as a warning with its line", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			entry("x1", "u1", { type: "future_thing", payload: { text: "SECRET-FUTURE" } }),
			assistant("a1", "x1", "ok"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["hi", "ok"]);
		expect(JSON.stringify(bundle.messages)).not.toContain("SECRET-FUTURE");
		expect(bundle.meta.entryCount).toBe(3);
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({ severity: "warning", code: "unknown_entry_type", line: 3 }),
		);
	});
});

describe("a forward parent reference", () => {
	it("loads when a child comes before its parent and there is no cycle", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "first"),
			user("u2", "a1", "third"),
			assistant("a1", "u1", "second"),
			assistant("a2", "u2", "fourth"),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("a2");
		expect(texts(bundle.messages)).toEqual(["first", "second", "third", "fourth"]);
		expect(bundle.meta.diagnostics).toEqual([]);
	});
});

describe("lenient mode", () => {
	const lines = [
		raw(HEADER),
		raw(user("u1", null, "one")),
		raw(assistant("a1", "u1", "two")),
		"this is not json",
		raw(entry("bad", "a1", { type: "message" })),
		raw(assistant("a1", "u1", "duplicate")),
		raw(user("u2", "a1", "three")),
		raw(assistant("a2", "u2", "four")),
	];

	it("fails on the same log in strict mode", () => {
		expect(errorOf(writeLog(`${lines.join("\n")}\n`)).code).toBe("bad_json");
	});

	it("skips the bad lines, lists every one as a warning; a duplicate id is the later entry's (lenient an alias)", () => {
		const path = writeLog(`${lines.join("\n")}\n`);
		for (const options of [{}, { lenient: true }]) {
			const bundle = load(path, options);
			// As pi: u2's parent a1 is the later a1, whose parent is u1.
			expect(texts(bundle.messages)).toEqual(["one", "duplicate", "three", "four"]);
			const skipped = bundle.meta.diagnostics.filter((d) => [4, 5, 6].includes(d.line ?? 0));
			expect(skipped.map((d) => d.line).sort()).toEqual([4, 5, 6]);
			for (const d of skipped) {
				expect(d.severity).toBe("warning");
				expect(d.file).toBe(path);
			}
			const byLine = new Map(skipped.map((d) => [d.line, d]));
			expect(byLine.get(4)).toMatchObject({ code: "skipped_line", column: 2 });
			expect(byLine.get(4)?.message).toMatch(/JSON/);
			expect(byLine.get(5)?.message).toMatch(/message/);
			expect(byLine.get(6)).toMatchObject({ code: "duplicate_id" });
			expect(byLine.get(6)?.message).toMatch(/line 6 \(first on line 3\)/);
		}
	});

	it("keeps a version-1 log one chain when a line in the middle is skipped", () => {
		const v1 = { type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
		const v1User = (text: string) => ({
			type: "message",
			timestamp: "2025-01-01T00:00:01.000Z",
			message: { role: "user", content: text },
		});
		const path = writeLog([
			v1,
			v1User("one"),
			{ type: "message", timestamp: "2025-01-01T00:00:02.000Z" },
			"not json",
			v1User("two"),
			v1User("three"),
		]);
		const bundle = load(path, { lenient: true });
		expect(texts(bundle.messages)).toEqual(["one", "two", "three"]);
		expect(bundle.meta.leafId).toBe("L6");
		const lines = bundle.meta.diagnostics.map((d) => d.line);
		expect(lines).toContain(3);
		expect(lines).toContain(4);
	});

	it("lists a skipped unknown parent and a torn last line too", () => {
		const path = writeLog(
			`${[
				raw(HEADER),
				raw(user("u1", null, "one")),
				raw(user("orphan", "ghost", "lost parent")),
				raw(assistant("a1", "u1", "two")),
			].join("\n")}\n{"torn`,
		);
		const bundle = load(path, { lenient: true });
		expect(texts(bundle.messages)).toEqual(["one", "two"]);
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({ severity: "warning", code: "unknown_parent", line: 3 }),
		);
		expect(bundle.meta.diagnostics).toContainEqual(
			expect.objectContaining({ severity: "warning", code: "torn_line", line: 5 }),
		);
	});
});

describe("the log file is never written", () => {
	it("leaves the bytes unchanged in the default mode", () => {
		const path = writeLog([HEADER, user("u1", null, "hi"), assistant("a1", "u1", "ok")]);
		const before = readFileSync(path);
		load(path);
		expect(readFileSync(path).equals(before)).toBe(true);
	});

	it("leaves the bytes unchanged in lenient mode, torn last line included", () => {
		const path = writeLog(
			`${raw(HEADER)}\nnot json\n${raw(user("u1", null, "hi"))}\n${raw(user("u1", null, "dup"))}\n{"torn`,
		);
		const before = readFileSync(path);
		const bundle = load(path, { lenient: true });
		expect(bundle.meta.diagnostics.length).toBeGreaterThanOrEqual(3);
		expect(readFileSync(path).equals(before)).toBe(true);
	});

	it("leaves the bytes unchanged when a version-1 log is migrated", () => {
		const path = writeLog([
			{ type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
			{
				type: "message",
				timestamp: "2025-01-01T00:00:01.000Z",
				message: { role: "hookMessage", customType: "h", content: "x" },
			},
			{
				type: "message",
				timestamp: "2025-01-01T00:00:02.000Z",
				message: { role: "user", content: "hi" },
			},
		]);
		const before = readFileSync(path);
		load(path);
		expect(readFileSync(path).equals(before)).toBe(true);
	});
});

describe("migrations: version 1", () => {
	const V1_HEADER = {
		type: "session",
		id: "session-v1",
		timestamp: "2025-01-01T00:00:00.000Z",
		cwd: "/home/user/old",
		provider: "anthropic",
		modelId: "claude-v1-model",
		thinkingLevel: "high",
	};
	const v1User = (text: string, second: number) => ({
		type: "message",
		timestamp: `2025-01-01T00:00:${String(second).padStart(2, "0")}.000Z`,
		message: { role: "user", content: text, timestamp: second * 1000 },
	});

	it("reads entries without ids as one chain in file order, with ids L<line>", () => {
		const path = writeLog([V1_HEADER, v1User("first", 1), v1User("second", 2), v1User("third", 3)]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["first", "second", "third"]);
		expect(bundle.meta.leafId).toBe("L4");
		expect(bundle.meta.entryCount).toBe(3);
	});

	it("loads a branch ending at a migrated id", () => {
		const path = writeLog([V1_HEADER, v1User("first", 1), v1User("second", 2), v1User("third", 3)]);
		const bundle = load(path, { leaf: "L3" });
		expect(bundle.meta.leafId).toBe("L3");
		expect(texts(bundle.messages)).toEqual(["first", "second"]);
	});

	it("gives the same ids on every load", () => {
		const path = writeLog([V1_HEADER, v1User("first", 1), v1User("second", 2)]);
		expect(load(path).meta.leafId).toBe("L3");
		expect(load(path).meta.leafId).toBe("L3");
		expect(texts(load(path, { leaf: "L2" }).messages)).toEqual(["first"]);
	});

	it("keeps exactly the lines from firstKeptEntryIndex up to the compaction, then what follows", () => {
		const path = writeLog([
			V1_HEADER,
			v1User("first", 1),
			v1User("second", 2),
			v1User("third", 3),
			{
				type: "compaction",
				timestamp: "2025-01-01T00:00:04.000Z",
				summary: "v1 summary",
				firstKeptEntryIndex: 3,
				tokensBefore: 500,
			},
			v1User("after", 5),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("L6");
		expect(bundle.messages[0]).toEqual({
			role: "compactionSummary",
			summary: "v1 summary",
			tokensBefore: 500,
			timestamp: Date.parse("2025-01-01T00:00:04.000Z"),
		});
		expect(texts(bundle.messages)).toEqual(["[compactionSummary] v1 summary", "third", "after"]);
		expect(bundle.meta.diagnostics).toEqual([]);
	});

	it("takes the model and thinking level from the header when the branch has no model change", () => {
		const path = writeLog([V1_HEADER, v1User("first", 1)]);
		const bundle = load(path);
		expect(bundle.meta.model).toEqual({ provider: "anthropic", modelId: "claude-v1-model" });
		expect(bundle.meta.thinkingLevel).toBe("high");
	});

	it("lets a model change on the branch win over the header", () => {
		const path = writeLog([
			V1_HEADER,
			v1User("first", 1),
			{
				type: "model_change",
				timestamp: "2025-01-01T00:00:02.000Z",
				provider: "openai",
				modelId: "gpt-later",
			},
			{
				type: "thinking_level_change",
				timestamp: "2025-01-01T00:00:03.000Z",
				thinkingLevel: "low",
			},
		]);
		const bundle = load(path);
		expect(bundle.meta.model).toEqual({ provider: "openai", modelId: "gpt-later" });
		expect(bundle.meta.thinkingLevel).toBe("low");
	});
});

describe("migrations: version 2", () => {
	it("reads the message role hookMessage as custom", () => {
		const path = writeLog([
			{ ...HEADER, version: 2 },
			user("u1", null, "hi"),
			entry("h1", "u1", {
				type: "message",
				message: {
					role: "hookMessage",
					customType: "my-hook",
					content: "from a hook",
					display: true,
					timestamp: 5,
				},
			}),
		]);
		const bundle = load(path);
		expect(bundle.messages).toHaveLength(2);
		expect(bundle.messages[1]).toEqual({
			role: "custom",
			customType: "my-hook",
			content: "from a hook",
			display: true,
			timestamp: 5,
		});
		expect(bundle.meta.diagnostics).toEqual([]);
	});

	it("leaves the role hookMessage alone in a version-3 log (an unknown role)", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "hi"),
			entry("h1", "u1", {
				type: "message",
				message: {
					role: "hookMessage",
					customType: "my-hook",
					content: "from a hook",
					timestamp: 5,
				},
			}),
		]);
		const bundle = load(path);
		expect(bundle.messages.map((m) => m.role)).toEqual(["user"]);
	});
});

describe("blank lines", () => {
	it("are ignored anywhere after the header", () => {
		const path = writeLog(
			`${raw(HEADER)}\n\n${raw(user("u1", null, "one"))}\n   \n\n${raw(assistant("a1", "u1", "two"))}\n\n`,
		);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["one", "two"]);
		expect(bundle.meta.entryCount).toBe(2);
		expect(bundle.meta.diagnostics).toEqual([]);
	});

	it("still count in the line numbers of errors", () => {
		const path = writeLog(`${raw(HEADER)}\n\n${raw(user("u1", null, "one"))}\n\n\n{oops\n`);
		const error = errorOf(path);
		expect(error.code).toBe("bad_json");
		expect(error.line).toBe(6);
	});

	it("still count in migrated version-1 ids", () => {
		const path = writeLog(
			`${raw({ type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })}\n\n${raw(
				{
					type: "message",
					timestamp: "2025-01-01T00:00:01.000Z",
					message: { role: "user", content: "hi" },
				},
			)}\n`,
		);
		expect(load(path).meta.leafId).toBe("L3");
	});
});

describe("the leaf rule", () => {
	it("does not let a session_metadata entry written last with parentId null become the leaf", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			metadata("m1", null, { memory: "remember this" }),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("a1");
		expect(texts(bundle.messages)).toEqual(["one", "two"]);
	});

	it("lets a label or session_info written last be the leaf, as pi does", () => {
		for (const last of [
			entry("l1", "u1", { type: "label", targetId: "u1", label: "start" }),
			entry("i1", "u1", { type: "session_info", name: "my session" }),
		]) {
			// Written right after navigating back to u1: it carries the new position.
			const path = writeLog([HEADER, user("u1", null, "one"), assistant("a1", "u1", "two"), last]);
			const bundle = load(path);
			expect(bundle.meta.leafId).toBe(last.id);
			expect(texts(bundle.messages)).toEqual(["one"]);
		}
	});

	it("lets a session_metadata entry with a parent be the leaf", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			metadata("m1", "u1", { memory: "m" }),
		]);
		expect(load(path).meta.leafId).toBe("m1");
	});

	it("takes the last entry in file order otherwise, even on another branch", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			assistant("b1", "u1", "other branch"),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("b1");
		expect(texts(bundle.messages)).toEqual(["one", "other branch"]);
	});

	it("follows an explicit leaf", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			assistant("b1", "u1", "other branch"),
		]);
		const bundle = load(path, { leaf: "a1" });
		expect(bundle.meta.leafId).toBe("a1");
		expect(texts(bundle.messages)).toEqual(["one", "two"]);
	});

	it("fails with unknown_leaf on a leaf id that names no entry", () => {
		const path = writeLog([HEADER, user("u1", null, "one")]);
		const error = errorOf(path, { leaf: "x" });
		expect(error.code).toBe("unknown_leaf");
		expect(error.file).toBe(path);
		expect(error.reason).toContain('"x"');
	});
});

describe("projection of entry kinds", () => {
	it("makes a branchSummary message from a branch_summary with a summary", () => {
		const summary = entry("bs", "u1", {
			type: "branch_summary",
			fromId: "elsewhere",
			summary: "tried another approach",
		});
		const path = writeLog([HEADER, user("u1", null, "one"), summary, user("u2", "bs", "two")]);
		const bundle = load(path);
		expect(bundle.messages).toHaveLength(3);
		expect(bundle.messages[1]).toEqual({
			role: "branchSummary",
			summary: "tried another approach",
			fromId: "elsewhere",
			timestamp: Date.parse(summary.timestamp),
		});
		expect(typeof (bundle.messages[1] as { timestamp: unknown }).timestamp).toBe("number");
	});

	it("makes nothing from a branch_summary with an empty summary", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			entry("bs", "u1", { type: "branch_summary", fromId: "elsewhere", summary: "" }),
			user("u2", "bs", "two"),
		]);
		const bundle = load(path);
		expect(bundle.messages.map((m) => m.role)).toEqual(["user", "user"]);
	});

	it("makes a custom message from a custom_message", () => {
		const custom = entry("cm", "u1", {
			type: "custom_message",
			customType: "reminder",
			content: "check the tests",
			display: false,
		});
		const path = writeLog([HEADER, user("u1", null, "one"), custom]);
		const bundle = load(path);
		expect(bundle.messages[1]).toEqual({
			role: "custom",
			customType: "reminder",
			content: "check the tests",
			display: false,
			timestamp: Date.parse(custom.timestamp),
		});
	});

	it("keeps a custom_message's block content as it is", () => {
		const content = [{ type: "text", text: "look" }];
		const custom = entry("cm", null, {
			type: "custom_message",
			customType: "note",
			content,
			display: true,
		});
		const bundle = load(writeLog([HEADER, custom]));
		expect(bundle.messages).toEqual([
			{
				role: "custom",
				customType: "note",
				content,
				display: true,
				timestamp: Date.parse(custom.timestamp),
			},
		]);
	});

	it("makes no message from model, thinking, label and other custom entries, but shows them in meta", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			entry("mc", "u1", { type: "model_change", provider: "openai", modelId: "gpt-x" }),
			entry("tl", "mc", { type: "thinking_level_change", thinkingLevel: "medium" }),
			entry("lb", "tl", { type: "label", targetId: "u1", label: "LABEL-TEXT" }),
			entry("cu", "lb", { type: "custom", customType: "ext-state", data: { x: "CUSTOM-DATA" } }),
			user("u2", "cu", "two"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual(["one", "two"]);
		expect(JSON.stringify(bundle.messages)).not.toMatch(/LABEL-TEXT|CUSTOM-DATA|gpt-x/);
		expect(bundle.meta.model).toEqual({ provider: "openai", modelId: "gpt-x" });
		expect(bundle.meta.thinkingLevel).toBe("medium");
	});

	it("takes the model of the latest assistant message after a model change", () => {
		const path = writeLog([
			HEADER,
			entry("mc", null, { type: "model_change", provider: "openai", modelId: "gpt-x" }),
			user("u1", "mc", "one"),
			assistant("a1", "u1", "two"),
		]);
		expect(load(path).meta.model).toEqual({ provider: "anthropic", modelId: "claude-test" });
	});

	it("takes the model and thinking level of the active branch only", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			entry("mc", "u1", { type: "model_change", provider: "openai", modelId: "gpt-x" }),
			entry("tl", "mc", { type: "thinking_level_change", thinkingLevel: "high" }),
			entry("tl2", "u1", { type: "thinking_level_change", thinkingLevel: "off" }),
			user("u2", "tl2", "two"),
		]);
		const bundle = load(path);
		expect(bundle.meta.model).toBeNull();
		expect(bundle.meta.thinkingLevel).toBe("off");
		const other = load(path, { leaf: "tl" });
		expect(other.meta.model).toEqual({ provider: "openai", modelId: "gpt-x" });
		expect(other.meta.thinkingLevel).toBe("high");
	});
});

describe("compaction", () => {
	it("counts only the last of two compactions on the branch", () => {
		const last = compaction("c2", "a3", "second summary", "u3", 9000);
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			user("u2", "a1", "three"),
			assistant("a2", "u2", "four"),
			compaction("c1", "a2", "first summary", "u2", 5000),
			user("u3", "c1", "five"),
			assistant("a3", "u3", "six"),
			last,
			user("u4", "c2", "seven"),
			assistant("a4", "u4", "eight"),
		]);
		const bundle = load(path);
		expect(bundle.messages[0]).toEqual({
			role: "compactionSummary",
			summary: "second summary",
			tokensBefore: 9000,
			timestamp: Date.parse(last.timestamp),
		});
		expect(texts(bundle.messages)).toEqual([
			"[compactionSummary] second summary",
			"five",
			"six",
			"seven",
			"eight",
		]);
		expect(bundle.meta.diagnostics).toEqual([]);
	});

	it("drops an earlier compaction that lies inside the kept tail of the last one", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			compaction("c1", "a1", "first summary", "a1"),
			user("u2", "c1", "three"),
			compaction("c2", "u2", "second summary", "a1"),
			user("u3", "c2", "four"),
		]);
		const bundle = load(path);
		expect(texts(bundle.messages)).toEqual([
			"[compactionSummary] second summary",
			"two",
			"three",
			"four",
		]);
	});

	it("keeps the first compaction when the leaf is before the second", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			compaction("c1", "a1", "first summary", "a1"),
			user("u2", "c1", "three"),
			compaction("c2", "u2", "second summary", "u2"),
			user("u3", "c2", "four"),
		]);
		const bundle = load(path, { leaf: "u2" });
		expect(texts(bundle.messages)).toEqual(["[compactionSummary] first summary", "two", "three"]);
	});

	it("keeps the kept tail ending right before the compaction and everything after it", () => {
		const path = writeLog([
			HEADER,
			user("u1", null, "one"),
			assistant("a1", "u1", "two"),
			user("u2", "a1", "three"),
			compaction("c1", "u2", "summary", "u2"),
		]);
		const bundle = load(path);
		expect(bundle.meta.leafId).toBe("c1");
		expect(texts(bundle.messages)).toEqual(["[compactionSummary] summary", "three"]);
	});
});

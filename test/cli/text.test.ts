/**
 * The text rendering for people: total over any JSON value (a property over
 * arbitrary message contents), iterative JSON equal to JSON.stringify, long
 * tool results cut, control characters escaped, headers that no diff line
 * can be mistaken for.
 */
import { constants } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardLength } from "../../src/cli/io.js";
import { blocksText, formatMessage, formatText } from "../../src/cli/text-output.js";
import { ContextService } from "../../src/service/context-service.js";
import type { ContextMessage } from "../../src/session/messages.js";
import { jsonText, writeJson } from "../../src/text/json-writer.js";
import { escapeControl } from "../../src/text/terminal.js";
import { HEADER, user, writeLog } from "../support/session.js";
import { hasRawControl } from "../support/terminal.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

/** A content block: a known type with fields of any JSON type, or anything at all. */
const block = fc.oneof(
	fc.record({
		type: fc.constantFrom("text", "thinking", "toolCall", "image", "other"),
		text: fc.jsonValue(),
		thinking: fc.jsonValue(),
		name: fc.jsonValue(),
		arguments: fc.jsonValue(),
		mimeType: fc.jsonValue(),
	}),
	fc.jsonValue(),
);
const content = fc.oneof(fc.jsonValue(), fc.array(block, { maxLength: 5 }));
const role = fc.constantFrom("user", "assistant", "toolResult");

describe("text rendering is total", () => {
	it("never throws on arbitrary JSON contents, and prints no raw control character", () => {
		fc.assert(
			fc.property(role, content, fc.jsonValue(), fc.string(), (r, c, toolName, entryId) => {
				const message = { role: r, content: c, toolName } as unknown as ContextMessage;
				const text = formatMessage(message, { role: r, content: c }, 0, entryId);
				expect(hasRawControl(text)).toBe(false);
			}),
			{ numRuns: RUNS },
		);
	});

	it("reaches the wrong-typed fields the property is about", () => {
		// {"toString": 1} where a string belongs: printed as JSON, not thrown on.
		const odd = { toString: 1 };
		const text = blocksText([
			{ type: "toolCall", name: odd, arguments: {} },
			{ type: "text", text: odd },
			{ type: "thinking", thinking: odd },
			{ type: "image", mimeType: odd },
		]);
		expect(text.split("\n")).toEqual([
			'[tool call {"toString":1}] {}',
			'{"toString":1}',
			'[thinking] {"toString":1}',
			expect.stringMatching(/^\[image \{"toString":1\}, /),
		]);
	});

	it("cuts tool-call arguments nested 100,000 deep at a depth limit, without recursion", () => {
		let args: unknown = 1;
		for (let i = 0; i < 100_000; i++) args = [args];
		const text = blocksText([{ type: "toolCall", name: "deep", arguments: args }]);
		expect(text).toContain("nested too deeply");
		expect(text.length).toBeLessThan(1000);
	});
});

describe("JSON without recursion", () => {
	it("equals JSON.stringify for any JSON value, compact and indented", () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
				expect(jsonText(value, { indent })).toBe(JSON.stringify(value, null, indent));
			}),
			{ numRuns: RUNS },
		);
	});

	it("writes a value nested 100,000 deep in chunks, and it reads back", () => {
		let value: unknown = [];
		for (let i = 0; i < 100_000; i++) value = { a: value };
		const chunks: string[] = [];
		writeJson(value, { indent: 2, write: (c) => chunks.push(c) });
		expect(chunks.length).toBeGreaterThan(1);
		let back = JSON.parse(chunks.join("")) as { a?: unknown };
		let depth = 0;
		while (back.a !== undefined) {
			back = back.a as { a?: unknown };
			depth++;
		}
		expect(depth).toBe(100_000);
	});
});

describe("render --format text", () => {
	const lines = Array.from({ length: 100 }, (_, i) => `output line ${i + 1}`);
	const toolResult = {
		type: "message",
		id: "t1",
		parentId: "u1",
		timestamp: "2026-01-01T00:00:01.000Z",
		message: {
			role: "toolResult",
			toolCallId: "c1",
			toolName: "bash",
			content: [{ type: "text", text: lines.join("\n") }],
			isError: false,
			timestamp: 2,
		},
	};

	function render(path: string, full = false): string {
		const service = new ContextService();
		const bundle = service.loadSync(path);
		return formatText(bundle, service.converter(bundle), { full });
	}

	it("heads each message with its index, role, entry id and size", () => {
		const text = render(writeLog([HEADER, user("u1", null, "hello there"), toolResult]));
		expect(text).toMatch(/^──── #0 user · entry u1 · 11 chars ────$/m);
		expect(text).toMatch(/^──── #1 toolResult bash · entry t1 · [\d,]+ chars, 100 lines ────$/m);
	});

	it("cuts a long tool result to its first lines, and --full shows all", () => {
		const path = writeLog([HEADER, user("u1", null, "run it"), toolResult]);
		const cut = render(path);
		expect(cut).toContain("output line 20\n… 80 more lines");
		expect(cut).not.toContain("output line 21\n");
		const full = render(path, true);
		expect(full).toContain("output line 100");
		expect(full).not.toContain("more lines");
	});

	it("has no line a diff could take for its own", () => {
		const text = render(writeLog([HEADER, user("u1", null, "hello"), toolResult]));
		const structural = text.split("\n").filter((l) => /^(#|═|─)/.test(l));
		expect(structural.length).toBeGreaterThan(3);
		for (const line of structural) expect(line).not.toMatch(/^(---|\+\+\+|@@|[-+] )/);
	});

	it("escapes control characters from session content", () => {
		const text = render(writeLog([HEADER, user("u1", null, "title\u001b]0;pwned\u0007 \u009b2J")]));
		expect(hasRawControl(text)).toBe(false);
		expect(text).toContain("title\\x1b]0;pwned\\x07 \\x9b2J");
	});
});

describe("escapeControl", () => {
	it("keeps tab and newline, escapes the rest, and is the identity on clean text", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary" }), (s) => {
				const out = escapeControl(s);
				expect(hasRawControl(out)).toBe(false);
				if (!hasRawControl(s)) expect(out).toBe(s);
			}),
			{ numRuns: RUNS },
		);
	});
});

describe("output past the longest string", () => {
	it("is a located error naming the limit, not a crash", () => {
		const tooLong = () => {
			throw new RangeError("Invalid string length");
		};
		expect(() => guardLength(tooLong, "/logs/huge.jsonl")).toThrow(
			new RegExp(
				`^/logs/huge\\.jsonl: .*longest string this runtime can hold \\(${constants.MAX_STRING_LENGTH} characters\\)`,
			),
		);
		const other = () => {
			throw new RangeError("Maximum call stack size exceeded");
		};
		expect(() => guardLength(other)).toThrow(/Maximum call stack/);
	});
});

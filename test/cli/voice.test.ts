/** The one voice of stderr: a diagnostic's line, and a corpus session's error taken back apart. */
import { describe, expect, it } from "vitest";
import { bugText, diagnosticText, errorText, sessionFailure } from "../../src/cli/voice.js";
import { ContextError } from "../../src/errors.js";

describe("diagnosticText", () => {
	it("puts the program, the location, the severity and the message in that order", () => {
		expect(
			diagnosticText({ severity: "warning", message: "m", file: "a.jsonl", line: 3, column: 2 }),
		).toBe("theway-context: a.jsonl:3:2: warning: m\n");
		expect(diagnosticText({ severity: "error", message: "m", file: "a.jsonl" })).toBe(
			"theway-context: a.jsonl: error: m\n",
		);
		expect(diagnosticText({ severity: "error", message: "m" })).toBe("theway-context: error: m\n");
	});

	it("keeps a frame under its line and escapes control characters", () => {
		const text = diagnosticText({
			severity: "error",
			message: "bad\u001b[2J",
			frame: "> 1 | x\n  | ^",
		});
		expect(text).toBe("theway-context: error: bad\\x1b[2J\n> 1 | x\n  | ^\n");
	});
});

describe("errorText and bugText", () => {
	it("says an error's own line, or each of the findings it collected", () => {
		const alone = new ContextError("bad_json", "not JSON", { file: "f.jsonl", line: 2 });
		expect(errorText(alone)).toBe("theway-context: f.jsonl:2: error: not JSON\n");
		const many = new ContextError(
			"bad_template",
			"2 errors",
			{},
			{
				diagnostics: [
					{ severity: "error", code: "bad_template", message: "one", file: "a.hbs", line: 1 },
					{ severity: "error", code: "bad_template", message: "two", file: "b.hbs", line: 2 },
				],
			},
		);
		expect(errorText(many)).toBe(
			"theway-context: a.hbs:1: error: one\ntheway-context: b.hbs:2: error: two\n",
		);
	});

	it("leads a bug's stack with one line that says it is one", () => {
		const text = bugText(new TypeError("boom"));
		expect(text.split("\n")[0]).toBe(
			"theway-context: error: internal error (a bug, please report it)",
		);
		expect(text).toContain("TypeError: boom");
	});
});

describe("sessionFailure", () => {
	it("takes a location in the session's own file back out of the message", () => {
		const error = new ContextError("bad_json", "not: JSON", {
			file: "s:1.jsonl",
			line: 4,
			column: 7,
		});
		expect(sessionFailure("s:1.jsonl", error.message)).toEqual({
			severity: "error",
			file: "s:1.jsonl",
			line: 4,
			column: 7,
			message: "not: JSON",
		});
		const lineOnly = new ContextError("bad_json", "x", { file: "s.jsonl", line: 4 });
		expect(sessionFailure("s.jsonl", lineOnly.message)).toMatchObject({ line: 4, message: "x" });
		const fileOnly = new ContextError("io", "gone", { file: "s.jsonl" });
		expect(sessionFailure("s.jsonl", fileOnly.message)).toEqual({
			severity: "error",
			file: "s.jsonl",
			message: "gone",
		});
	});

	it("locates an error of another file, or of none, at the session, its message whole", () => {
		expect(sessionFailure("s.jsonl", "t/v1/x.hbs:3:1: unknown helper")).toEqual({
			severity: "error",
			file: "s.jsonl",
			message: "t/v1/x.hbs:3:1: unknown helper",
		});
	});
});

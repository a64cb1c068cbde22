/** The five summary components: parsing, caps and the normal form. */
import { describe, expect, it } from "vitest";
import { capSummary, formatSummary, parseSummary } from "../../src/view/summary.js";

const CAPS = {
	goal: 20,
	"completed work": 20,
	"key decisions": 20,
	"next steps": 20,
	"critical context": 20,
};
const values = (text: string) => parseSummary(text).map((c) => c.value);

describe("parseSummary", () => {
	it("reads labelled components in the fixed order, whatever order they come in", () => {
		expect(values("next steps: c\ngoal: a\ncompleted work: b")).toEqual(["a", "b", "", "c", ""]);
	});

	it("runs a value until the next label, across lines", () => {
		expect(values("goal: one\ntwo\nkey decisions: three")).toEqual([
			"one\ntwo",
			"",
			"three",
			"",
			"",
		]);
	});

	it("puts plain or legacy text whole under critical context", () => {
		expect(values("Explored auth; decided X.\nSecond line.")).toEqual([
			"",
			"",
			"",
			"",
			"Explored auth; decided X.\nSecond line.",
		]);
	});

	it("keeps text before the first label, under critical context, never dropping it", () => {
		expect(values("preamble\ngoal: g\ncritical context: c")).toEqual([
			"g",
			"",
			"",
			"",
			"preamble\nc",
		]);
	});

	it("joins a repeated label's values", () => {
		expect(values("goal: a\ngoal: b")).toEqual(["a\n\nb", "", "", "", ""]);
	});

	it("round-trips its own normal form", () => {
		const text = "goal: \ncompleted work: x\ny\nkey decisions: \nnext steps: z\ncritical context: ";
		expect(formatSummary(parseSummary(text))).toBe(text);
	});
});

describe("capSummary", () => {
	it("cuts each component to its cap, with an ellipsis, and reports the cut", () => {
		const { components, cut } = capSummary(parseSummary(`goal: ${"a".repeat(50)}`), CAPS);
		expect(components[0]?.value).toBe(`${"a".repeat(19)}…`);
		expect([...(components[0]?.value ?? "")].length).toBe(20);
		expect(cut).toEqual([{ label: "goal", from: 50, to: 20 }]);
	});

	it("never splits a surrogate pair and counts characters, not code units", () => {
		const emoji = "😀".repeat(20);
		expect(capSummary(parseSummary(`goal: ${emoji}`), CAPS).cut).toEqual([]);
		const long =
			capSummary(parseSummary(`goal: ${"😀".repeat(30)}`), CAPS).components[0]?.value ?? "";
		expect(long).toBe(`${"😀".repeat(19)}…`);
	});
});

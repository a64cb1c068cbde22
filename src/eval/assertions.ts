/**
 * Assertions on an answer, from a YAML file (`--assert FILE`): `tests`, each
 * a name, the calls it holds for (indices; default every call asked about)
 * and its assertions. The types are promptfoo's where it has them
 * (`contains`, `icontains`, `not-contains`, `regex`, `equals`,
 * `starts-with`, `is-json`, on the answer's text) and the agent's own:
 * `tool-called`, `not-tool-called`, `arguments-match` (some call of the
 * tool whose arguments hold the given ones) and `same-as-recorded` (`tool`
 * or `arguments`). Validated with zod and located like every file read.
 */
import { z } from "zod";
import { parseYaml, validateYaml } from "../templates/yaml.js";
import type { Answer } from "./client.js";
import { isSubset, type SameAsRecorded } from "./compare.js";

const text = z.string();
const AssertionSchema = z.discriminatedUnion("type", [
	z.strictObject({ type: z.literal("contains"), value: text }),
	z.strictObject({ type: z.literal("icontains"), value: text }),
	z.strictObject({ type: z.literal("not-contains"), value: text }),
	z.strictObject({
		type: z.literal("regex"),
		value: text.refine(isPattern, { message: "not a valid regular expression" }),
	}),
	z.strictObject({ type: z.literal("equals"), value: text }),
	z.strictObject({ type: z.literal("starts-with"), value: text }),
	z.strictObject({ type: z.literal("is-json"), value: z.null().optional() }),
	z.strictObject({ type: z.literal("tool-called"), value: text.min(1) }),
	z.strictObject({ type: z.literal("not-tool-called"), value: text.min(1) }),
	z.strictObject({
		type: z.literal("arguments-match"),
		value: z.strictObject({
			tool: text.min(1).optional(),
			arguments: z.record(z.string(), z.unknown()),
		}),
	}),
	z.strictObject({
		type: z.literal("same-as-recorded"),
		value: z.enum(["tool", "arguments"]).default("tool"),
	}),
]);

const AssertFileSchema = z.strictObject({
	tests: z.array(
		z.strictObject({
			name: z.string().min(1),
			calls: z.array(z.number().int().nonnegative()).optional(),
			assert: z.array(AssertionSchema).min(1),
		}),
	),
});

/** One assertion, as the file gives it. */
export type Assertion = z.infer<typeof AssertionSchema>;
/** The tests of an assertions file. */
export type AssertTests = z.infer<typeof AssertFileSchema>["tests"];

/** One assertion's outcome on one answer. */
export interface AssertionResult {
	name: string;
	pass: boolean;
	reason: string;
}

/** The tests of an assertions file's text; `file` names it in errors (code `bad_assertions`). */
export function parseAssertions(source: string, file: string): AssertTests {
	const parsed = parseYaml(source, file, "bad_assertions");
	return validateYaml(AssertFileSchema, parsed, file, "bad_assertions", "assertions file").tests;
}

/** Each assertion of the tests that hold for call `index`, on `answer` (undefined: the call failed). */
export function checkAnswer(
	tests: AssertTests,
	index: number,
	answer: Answer | undefined,
	same: SameAsRecorded | null,
	error: string | undefined,
): AssertionResult[] {
	const out: AssertionResult[] = [];
	for (const test of tests) {
		if (test.calls !== undefined && !test.calls.includes(index)) continue;
		for (const assertion of test.assert) {
			const name = `${test.name}: ${describe(assertion)}`;
			if (answer === undefined || same === null) {
				out.push({ name, pass: false, reason: `no answer: ${error ?? "the call failed"}` });
				continue;
			}
			out.push({ name, ...check(assertion, answer, same) });
		}
	}
	return out;
}

function describe(a: Assertion): string {
	if (a.type === "is-json") return a.type;
	if (a.type === "arguments-match") return `${a.type} ${JSON.stringify(a.value)}`;
	return `${a.type} ${JSON.stringify(a.value)}`;
}

function check(
	a: Assertion,
	answer: Answer,
	same: SameAsRecorded,
): { pass: boolean; reason: string } {
	const t = answer.text;
	const names = answer.toolCalls.map((c) => c.name);
	const called = names.length === 0 ? "no tool" : names.join(", ");
	const verdict = (pass: boolean, yes: string, no: string) => ({ pass, reason: pass ? yes : no });
	switch (a.type) {
		case "contains":
			return verdict(t.includes(a.value), "the text contains it", "the text does not contain it");
		case "icontains":
			return verdict(
				t.toLowerCase().includes(a.value.toLowerCase()),
				"the text contains it (case ignored)",
				"the text does not contain it, case ignored",
			);
		case "not-contains":
			return verdict(!t.includes(a.value), "the text does not contain it", "the text contains it");
		case "regex":
			return verdict(new RegExp(a.value).test(t), "the text matches", "the text does not match");
		case "equals":
			return verdict(
				t === a.value,
				"the text is exactly that",
				`the text is ${JSON.stringify(clip(t))}`,
			);
		case "starts-with":
			return verdict(
				t.startsWith(a.value),
				"the text starts so",
				`the text starts ${JSON.stringify(clip(t))}`,
			);
		case "is-json":
			return verdict(isJson(t), "the text is JSON", "the text is not JSON");
		case "tool-called":
			return verdict(names.includes(a.value), `called ${called}`, `called ${called}`);
		case "not-tool-called":
			return verdict(!names.includes(a.value), `called ${called}`, `called ${called}`);
		case "arguments-match": {
			const { tool, arguments: expected } = a.value;
			const calls = answer.toolCalls.filter((c) => tool === undefined || c.name === tool);
			const hit = calls.some((c) => isSubset(expected, c.arguments));
			const which = tool === undefined ? "a call" : `a call of ${tool}`;
			return verdict(
				hit,
				`${which} has these arguments`,
				calls.length === 0
					? `no call of ${tool ?? "any tool"} (called ${called})`
					: `no ${which.slice(2)} has these arguments`,
			);
		}
		case "same-as-recorded": {
			const pass = a.value === "tool" ? same.tool : same.arguments;
			return verdict(
				pass,
				`the same ${a.value === "tool" ? "tools" : "tools and arguments"} as recorded`,
				a.value === "tool" || !same.tool
					? `called ${called}, unlike the session`
					: "the same tools as recorded, other arguments",
			);
		}
	}
}

function isPattern(value: string): boolean {
	try {
		new RegExp(value);
		return true;
	} catch {
		return false;
	}
}

function isJson(value: string): boolean {
	try {
		JSON.parse(value);
		return true;
	} catch {
		return false;
	}
}

function clip(value: string): string {
	return value.length > 60 ? `${value.slice(0, 60)}…` : value;
}

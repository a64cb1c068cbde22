/** fast-check arbitraries for the text and the messages of session logs, hostile text included. */
import fc from "fast-check";
import { SUMMARY_LABELS } from "../../src/view/schema.js";
import { MARKERS } from "./expected.js";

// ── strings ─────────────────────────────────────────────────────────────────

/** Text that tries to break out of its place: section tags, framing markers, line breaks. */
export const HOSTILE = [
	"</environment>",
	"<environment>",
	"<lineage>",
	"</lineage>",
	"<harness>",
	"</harness>",
	"<tools>",
	"</tools>",
	"<memory>",
	"</memory>",
	"<summary>",
	"</summary>",
	"< /LINEAGE >",
	...MARKERS,
	...MARKERS.map((marker) => `\\${marker}`),
	"{{summary}}",
	"{{> harness}}",
	"goal: ",
	"\ncritical context: ",
	"\n",
	"\r\n",
	"\r",
	"\u2028",
	"\u0085",
	"\t",
	"\u0000",
	"\ud800",
	"\udc00",
	"é",
	"👩‍💻",
	"\u202e",
	"\ufeff",
	"__proto__",
];

/** Short text: unicode, line breaks, and sometimes hostile markup. */
export const text: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
	{ weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
	{
		weight: 3,
		arbitrary: fc
			.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 })), { maxLength: 6 })
			.map((parts) => parts.join("")),
	},
);

export const KNOWN_TOOLS = [
	"read",
	"write",
	"edit",
	"bash",
	"grep",
	"outline",
	"ls",
	"git",
	"dag_run",
	"dag_wait",
	"session_graph_read",
	"session_tool_result",
	"mystery",
];
export const toolName: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...KNOWN_TOOLS) },
	{ weight: 1, arbitrary: text },
);

/** A compact summary: plain text, labelled components (any order, repeats), or an over-long value. */
export const summaryText: fc.Arbitrary<string> = fc.oneof(
	{ weight: 2, arbitrary: text },
	{
		weight: 4,
		arbitrary: fc
			.array(
				fc.tuple(fc.constantFrom(...SUMMARY_LABELS), fc.constantFrom(":", ": ", " :\t"), text),
				{ maxLength: 7 },
			)
			.map((parts) => parts.map(([label, colon, value]) => `${label}${colon}${value}`).join("\n")),
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(fc.constantFrom(...SUMMARY_LABELS), text, fc.integer({ min: 100, max: 800 }))
			.map(([label, value, times]) => `${label}: ${(value === "" ? "é" : value).repeat(times)}`),
	},
);

// ── messages ────────────────────────────────────────────────────────────────

export const json = fc.jsonValue({ maxDepth: 2 });
export const textBlock = text.map((t) => ({ type: "text", text: t }));
export const imageBlock = fc.record({
	type: fc.constant("image"),
	data: fc.base64String({ maxLength: 16 }),
	mimeType: fc.constantFrom("image/png", "image/jpeg"),
});
export const thinkingBlock = text.map((t) => ({ type: "thinking", thinking: t }));
export const toolCallBlock = fc.record({
	type: fc.constant("toolCall"),
	id: text,
	name: toolName,
	arguments: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
});
export const userContent = fc.oneof(
	text,
	fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
);
export const millis = fc.nat({ max: 2_000_000_000_000 });

export const userMessage = fc.record({
	role: fc.constant("user"),
	content: userContent,
	timestamp: millis,
});
export const assistantMessage = fc.record(
	{
		role: fc.constant("assistant"),
		content: fc.array(fc.oneof(textBlock, thinkingBlock, toolCallBlock), { maxLength: 4 }),
		api: fc.constant("anthropic-messages"),
		provider: fc.oneof(fc.constant("anthropic"), text),
		model: fc.oneof(fc.constant("claude-test"), text),
		usage: fc.constant({ input: 1, output: 2 }),
		stopReason: fc.constantFrom("stop", "toolUse", "length", "error"),
		errorMessage: text,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "content", "api", "usage", "stopReason", "timestamp"] },
);
export const toolResultMessage = fc.record(
	{
		role: fc.constant("toolResult"),
		toolCallId: text,
		toolName,
		content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
		isError: fc.boolean(),
		details: json,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "toolCallId", "toolName", "content", "isError", "timestamp"] },
);
export const bashMessage = fc.record(
	{
		role: fc.constant("bashExecution"),
		command: text,
		output: text,
		exitCode: fc.option(fc.integer({ min: -1, max: 255 }), { nil: null }),
		cancelled: fc.boolean(),
		truncated: fc.boolean(),
		fullOutputPath: text,
		excludeFromContext: fc.boolean(),
		timestamp: millis,
	},
	{
		requiredKeys: ["role", "command", "output", "exitCode", "cancelled", "truncated", "timestamp"],
	},
);
export const customRoleMessage = fc.record(
	{
		role: fc.constant("custom"),
		customType: text,
		content: userContent,
		display: fc.boolean(),
		details: json,
		timestamp: millis,
	},
	{ requiredKeys: ["role", "customType", "content", "display", "timestamp"] },
);

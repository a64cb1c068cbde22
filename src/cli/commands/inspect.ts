/** `inspect`, declared: its options and help (the body is ../inspect.ts, loaded when it runs). */

import { BRANCH, output, SET, STRICTNESS, TEMPLATES, TOKENIZER, TOOLS } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const INSPECT = declareCommand({
	name: "inspect",
	summary: "measure each section and message of a session in tokens",
	synopsis: "<session.jsonl> [options]",
	args: { name: "<session.jsonl>", count: "one" },
	description: `Measures what the model sees: each system-prompt section (and the template
parts it is made of), each provider-ready message, the total, the
cache-stable prefix, budgets, and the usage the log recorded.`,
	options: {
		...output(["text", "json"], "text: a table with bars; json: the measures"),
		...TOKENIZER,
		...BRANCH,
		...TOOLS,
		...TEMPLATES,
		...SET,
		...STRICTNESS,
	},
});

/** `replay`, declared: its options and help (the body is ../replay.ts, loaded when it runs). */

import {
	CORPUS,
	output,
	PRICES,
	SET,
	STRICTNESS,
	TEMPLATES,
	TOKENIZER,
	TOOLS,
} from "../option-groups.js";
import { declareCommand } from "../options.js";

export const REPLAY = declareCommand({
	name: "replay",
	summary: "what every model call of a session costs, cached and new",
	synopsis: "<session.jsonl|DIR>... [options]",
	args: { name: "<session.jsonl|DIR>", count: "some" },
	description: `Replays every model call of a session (each assistant message on the active
branch, in order): the context the compiler gives at that point, in tokens
(as inspect counts it), the prefix it shares with the previous call's
context (cached) and the rest (new), the output and the usage the log
recorded, and the cost at the call's model's price. Checks the token model
against the recorded usage (the growth of the context from call to call,
every tool result whole, against the growth of the recorded prompt).
DIR is searched for .jsonl files; folders are replayed on every core.`,
	options: {
		...SET,
		...TEMPLATES,
		...TOOLS,
		vs: {
			type: "string",
			value: "V|DIR",
			help: "the same calls under a second set (a set of the templates folder, or another templates folder), and the change in tokens and cost",
		},
		...TOKENIZER,
		calibrate: {
			type: "path",
			value: "FILE",
			help: "fit the table's estimates on these sessions' recorded usage and write the table to FILE (for --tokenizer FILE)",
		},
		...PRICES,
		...output(
			["text", "json"],
			`text: totals, fit and a chart; json: {"sessions": [...], "summary": {...}}`,
		),
		...CORPUS,
		...STRICTNESS,
	},
	notes: `Exit codes: 0 done, 1 a session failed to load (the others are replayed),
2 wrong usage.`,
});

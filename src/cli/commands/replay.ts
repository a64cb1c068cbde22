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
With --vs B, each session and the summary say what B would change, in
words: "with B instead of A: +N tokens (cached, new), +$X", A the set the
session was replayed with (--template-version, else its own).
DIR is searched for .jsonl files; folders are replayed on every core.`,
	options: {
		...SET,
		...TEMPLATES,
		...TOOLS,
		vs: {
			type: "string",
			value: "B",
			help: "the same calls under a second side B (a set of the templates folder, another templates folder, or a git revision: HEAD, HEAD~1, main:templates), and what B would change: 'with B instead of A: +N tokens, +$X'",
		},
		summary: {
			type: "boolean",
			help: 'the summary over all sessions only (and its chart), not a block a session; with --format json, {"summary": {...}}',
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

/** `diff`, declared: its options and help (the body is ../diff.ts, loaded when it runs). */

import { CORPUS, output, STRICTNESS, TEMPLATES, TOKENIZER, TOOLS } from "../option-groups.js";
import { declareCommand } from "../options.js";

const SIDE = "a set, a templates folder or a git revision";

/** An option of the text output refuses `--format json` (per session and part already). */
const textOnly = (option: string) => (values: Readonly<Record<string, unknown>>) =>
	values.format === "json"
		? `${option} shapes the text output, and --format json is not text`
		: undefined;

export const DIFF = declareCommand({
	name: "diff",
	summary: "what a template change does to sessions",
	synopsis: "<session.jsonl|DIR>... --from A --to B [options]",
	args: { name: "<session.jsonl|DIR>", count: "some" },
	description: `Renders every session with template sets A and B and prints the system-prompt
sections and message framings that changed (a unified diff of the text, with
the token delta of each), then a summary over all of them. Over several
sessions, a hunk that several show is printed once, with their number and the
first few names (--format json stays per session). A tool result that one
side sends as a stub and the other whole is one line (its tokens on both
sides), not its text, unless --full. --stat prints one line a changed
session (the sections and messages that changed, the token delta) and the
summary, no text.
A and B are each a set of the templates folder (v1, v2), another templates
folder (its sets render each session as they would there), or a git
revision: HEAD, main, HEAD~1 (the templates folder as it was there) or
REV:PATH (main:templates, a folder by its path from the top of the
repository the command runs in, else of the templates folder's own),
read with git into a temporary folder, the working tree untouched. A set
of a revision that this version cannot build (a key it does not know) is
reported once, at REV:PATH, and the sessions that render with it fail; the
others are compared. DIR is searched for .jsonl files; folders are compared
on every core.`,
	options: {
		from: { type: "string", value: "A", required: true, help: `the side before: ${SIDE}` },
		to: { type: "string", value: "B", required: true, help: `the side after: ${SIDE}` },
		...TEMPLATES,
		...TOOLS,
		...output(["text", "json"], `json: {"sessions": [...], "summary": {...}}`),
		stat: {
			type: "boolean",
			conflicts: "full",
			check: textOnly("--stat"),
			help: "one line a changed session (its changed sections and messages, its token delta), then the summary",
		},
		full: {
			type: "boolean",
			check: textOnly("--full"),
			help: "show the text of a tool result gone from whole to stub or back too (by default it is one line)",
		},
		"exit-code": {
			type: "boolean",
			help: "exit 1 when anything changed, as git diff --exit-code",
		},
		...TOKENIZER,
		...CORPUS,
		...STRICTNESS,
	},
	notes: `--templates names the folder whose sets --from and --to name.

Exit codes: 0 done (and, with --exit-code, nothing changed), 1 a session failed
to load or, with --exit-code, something changed, 2 wrong usage.`,
});

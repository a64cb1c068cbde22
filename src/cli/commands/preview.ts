/** `preview`, declared: its options and help (the body is ../preview.ts, loaded when it runs). */

import { TEMPLATES, TOKENIZER, TOOLS } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const PREVIEW = declareCommand({
	name: "preview",
	summary: "a live page of the prompt, for editing templates",
	synopsis: "[session.jsonl|DIR] [options]",
	args: { name: "session log or folder", count: "optional" },
	description: `Serves a page on 127.0.0.1 showing what the model gets for a session: the
system prompt section by section, each labelled with its template, and the
messages as the model sees them, with their sizes. The page follows every
save of a template or categories.yaml; the working copy of each set renders
before its version is bumped. DIR is searched for *.jsonl (default: the
current folder).`,
	options: {
		...TEMPLATES,
		port: {
			type: "integer",
			value: "N",
			min: 0,
			max: 65535,
			default: 4770,
			help: "the port (0 picks a free one)",
		},
		...TOKENIZER,
		...TOOLS,
		eval: {
			type: "path",
			value: "FILE",
			help: "an eval report (eval --format json): the page shows, per call it asked about, the answer beside what the session did, the calls that flipped between the sets highlighted",
		},
		open: { type: "boolean", help: "open the page in a browser" },
	},
});

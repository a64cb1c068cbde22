/** `serve`, declared: its options and help (the body is ../serve.ts, loaded when it runs). */
import { DEFAULT_MAX_REQUEST_BYTES } from "../../serve/lines.js";
import { STRICTNESS, TEMPLATES } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const SERVE = declareCommand({
	name: "serve",
	summary: "a sidecar: JSON-RPC 2.0 over stdin/stdout",
	synopsis: "--stdio [options]",
	args: { name: "", count: "none" },
	description: `Serves context bundles to a long-lived client: JSON-RPC 2.0, one JSON object
per line on stdin and stdout. Methods: load, close, reload, version,
shutdown (see docs/sidecar.md).
Sessions stay open, so a load with the cursor of an earlier reply reads only
what was appended and returns only the new messages. Warnings and logs go to
stderr. Ends on shutdown or at the end of stdin.`,
	options: {
		stdio: {
			type: "boolean",
			required: true,
			help: "serve on stdin and stdout (the only transport)",
		},
		"max-sessions": {
			type: "integer",
			value: "N",
			min: 1,
			default: 32,
			help: "sessions kept open, least recently used out first",
		},
		"max-request-bytes": {
			type: "integer",
			value: "N",
			min: 1,
			default: DEFAULT_MAX_REQUEST_BYTES,
			help: "the longest request line",
		},
		...TEMPLATES,
		root: {
			type: "path",
			value: "DIR",
			exists: "dir",
			multiple: true,
			help: "serve only session logs inside DIR (repeatable; symlinks and .. resolved; a path outside is refused, -32003)",
			defaultHelp: "any path",
		},
		quiet: STRICTNESS.quiet,
	},
});

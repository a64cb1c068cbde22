/** `theway-context serve --stdio`: the sidecar for a daemon (`src/serve/`). */

import { realpathSync, statSync } from "node:fs";
import { DEFAULT_MAX_REQUEST_BYTES, serveStreams } from "../serve/stdio.js";
import { TemplateRegistry } from "../templates/registry.js";
import { defineCommand, HELP_OPTION, templatesOption } from "./io.js";
import { usageError } from "./usage.js";

const DEFAULT_MAX_SESSIONS = 32;

export const SERVE_USAGE = `Usage: theway-context serve --stdio [options]

Serves context bundles to a long-lived client: JSON-RPC 2.0, one JSON object
per line on stdin and stdout. Methods: load, close, reload, version,
shutdown (see docs/sidecar.md).
Sessions stay open, so a load with the cursor of an earlier reply reads only
what was appended and returns only the new messages. Warnings and logs go to
stderr. Ends on shutdown or at the end of stdin.

Options:
  --stdio                   serve on stdin and stdout (the only transport)
  --max-sessions N          sessions kept open, least recently used out first (default ${DEFAULT_MAX_SESSIONS})
  --max-request-bytes N     the longest request line (default ${DEFAULT_MAX_REQUEST_BYTES})
  --templates DIR           the templates folder (default: the bundled templates/)
  --root DIR                serve only session logs inside DIR (repeatable; symlinks and ..
                            resolved; a path outside is refused, -32003); default: any path
  --quiet                   do not print warnings
  -h, --help                this help
`;

const OPTIONS = {
	stdio: { type: "boolean" },
	"max-sessions": { type: "string" },
	"max-request-bytes": { type: "string" },
	templates: { type: "string" },
	root: { type: "string", multiple: true },
	quiet: { type: "boolean" },
	...HELP_OPTION,
} as const;

export const serveCommand = defineCommand(
	OPTIONS,
	SERVE_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length > 0)
			throw usageError("serve takes no positional arguments", SERVE_USAGE);
		if (values.stdio !== true) throw usageError("--stdio is required", SERVE_USAGE);
		const maxSessions = count(values["max-sessions"], "--max-sessions", DEFAULT_MAX_SESSIONS);
		const maxRequestBytes = count(
			values["max-request-bytes"],
			"--max-request-bytes",
			DEFAULT_MAX_REQUEST_BYTES,
		);
		const templates = templatesOption(values.templates, io);
		// Templates that cannot be read or built stop the start, located, not every request.
		const registry = TemplateRegistry.for(templates.templates);
		await registry.ready();
		for (const version of registry.versions()) registry.get(version);
		const roots = values.root?.map((root) => rootOf(root));
		await serveStreams(process.stdin, process.stdout, {
			...(roots === undefined ? {} : { roots }),
			maxSessions,
			maxRequestBytes,
			...templates,
			log: values.quiet === true ? () => {} : io.stderr,
		});
		return 0;
	},
);

/** A `--root` folder as its real path; one that is no folder is a usage error. */
function rootOf(dir: string): string {
	try {
		if (statSync(dir).isDirectory()) return realpathSync(dir);
	} catch {
		// said below
	}
	throw usageError(`--root ${dir}: no such folder`, SERVE_USAGE);
}

function count(value: string | undefined, name: string, fallback: number): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isSafeInteger(n) || n < 1) {
		throw usageError(`${name} must be a positive integer`, SERVE_USAGE);
	}
	return n;
}

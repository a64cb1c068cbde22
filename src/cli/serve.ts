/** `theway-context serve --stdio`: the sidecar for a daemon (`src/serve/`). */

import { realpathSync } from "node:fs";
import { serveStreams } from "../serve/stdio.js";
import { TemplateRegistry } from "../templates/registry.js";
import { defineCommand } from "./command.js";
import { SERVE } from "./commands/serve.js";
import { bugText, printWarnings } from "./voice.js";

export const serveCommand = defineCommand(SERVE, async ({ values }, io) => {
	const templates = values.templates === undefined ? {} : { templates: values.templates };
	// Templates that cannot be read or built stop the start, located, not every request.
	const registry = TemplateRegistry.for(templates.templates);
	await registry.ready();
	for (const version of registry.versions()) registry.get(version);
	// A root by its real path: a log is checked by its own.
	const roots = values.root?.map((root) => realpathSync(root));
	await serveStreams(process.stdin, process.stdout, {
		...(roots === undefined ? {} : { roots }),
		maxSessions: values["max-sessions"],
		maxRequestBytes: values["max-request-bytes"],
		...templates,
		// --quiet: nothing on stderr, not even a bug's stack (its -32603 reply still goes).
		warn: (d) => printWarnings(io, [d], values.quiet),
		bug: (error) => {
			if (!values.quiet) io.stderr(bugText(error));
		},
	});
	return 0;
});

/** `theway-context lsp --stdio`: the language server for template sets (`src/lsp/`). */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import { startServer } from "../lsp/server.js";
import { usageError } from "./usage.js";
import "../templates/compile.js";
import { defineCommand, HELP_OPTION, templatesOption } from "./io.js";

export const LSP_USAGE = `Usage: theway-context lsp --stdio [options]

A Language Server Protocol server for the .hbs templates of a templates
folder: the build step's checks as diagnostics while you type (front-matter,
types, section order, versions against the lock, budgets on the fixtures),
completion of view-model paths, helpers, partials and front-matter keys,
hover with types and sizes, go to definition of a partial, document symbols,
and a command that renders a template for a fixture session. Ends on the
client's exit notification (0 after shutdown, 1 without) or at the end of
stdin. See docs/editor.md for editor set-ups.

Options:
  --stdio            serve on stdin and stdout (the only transport)
  --templates DIR    the templates folder (default: found from each file
                     upward: the folder with lock.json or v1/, v2/, … sets)
  --fixtures DIR     fixture sessions for budgets, sizes and rendering
                     (default: test/fixtures beside the templates folder)
  -h, --help         this help
`;

const OPTIONS = {
	stdio: { type: "boolean" },
	templates: { type: "string" },
	fixtures: { type: "string" },
	...HELP_OPTION,
} as const;

export const lspCommand = defineCommand(OPTIONS, LSP_USAGE, async ({ values, positionals }, io) => {
	if (positionals.length > 0) throw usageError("lsp takes no positional arguments", LSP_USAGE);
	if (values.stdio !== true) throw usageError("--stdio is required", LSP_USAGE);
	const { templates } = templatesOption(values.templates, io);
	if (templates !== undefined && !existsSync(templates))
		throw new ContextError("io", "templates folder not found", { file: templates });
	const fixtures = values.fixtures === undefined ? undefined : resolve(io.cwd, values.fixtures);
	const connection = startServer(process.stdin, process.stdout, {
		...(templates === undefined ? {} : { templates }),
		...(fixtures === undefined ? {} : { fixtures }),
	});
	// The connection ends the process on `exit`, as the protocol says; until then, serve.
	await new Promise<void>((done) => connection.onExit(done));
	return 0;
});

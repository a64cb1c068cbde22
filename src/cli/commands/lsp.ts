/** `lsp`, declared: its options and help (the body is ../lsp.ts, loaded when it runs). */

import { TEMPLATES } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const LSP = declareCommand({
	name: "lsp",
	summary: "a language server for editing templates",
	synopsis: "--stdio [options]",
	args: { name: "", count: "none" },
	description: `A Language Server Protocol server for the .hbs templates of a templates
folder: the build step's checks as diagnostics while you type (front-matter,
types, section order, versions against the lock, budgets on the fixtures),
completion of view-model paths, helpers, partials and front-matter keys,
hover with types and sizes, go to definition of a partial, document symbols,
and a command that renders a template for a fixture session. Ends on the
client's exit notification (0 after shutdown, 1 without) or at the end of
stdin. See docs/editor.md for editor set-ups.`,
	options: {
		stdio: {
			type: "boolean",
			required: true,
			help: "serve on stdin and stdout (the only transport)",
		},
		templates: {
			...TEMPLATES.templates,
			defaultHelp: "found from each file upward: the folder with lock.json or v1/, v2/, … sets",
		},
		fixtures: {
			type: "path",
			value: "DIR",
			help: "fixture sessions for budgets, sizes and rendering",
			defaultHelp: "test/fixtures beside the templates folder",
		},
	},
});

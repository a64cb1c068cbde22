/** `theway-context lsp --stdio`: the language server for template sets (`src/lsp/`). */
import { startServer } from "../lsp/server.js";
import "../templates/compile.js";
import { defineCommand } from "./command.js";
import { LSP } from "./commands/lsp.js";

export const lspCommand = defineCommand(LSP, async ({ values }) => {
	const { templates, fixtures } = values;
	const connection = startServer(process.stdin, process.stdout, {
		...(templates === undefined ? {} : { templates }),
		...(fixtures === undefined ? {} : { fixtures }),
	});
	// The connection ends the process on `exit`, as the protocol says; until then, serve.
	await new Promise<void>((done) => connection.onExit(done));
	return 0;
});

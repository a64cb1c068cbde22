/** `theway-context lsp --stdio`: the language server for template sets (`src/lsp/`). */
import { startServer } from "../lsp/server.js";
import "../templates/compile.js";
import { defineCommand } from "./command.js";
import { LSP } from "./commands/lsp.js";
import { printDiagnostic } from "./voice.js";

export const lspCommand = defineCommand(LSP, async ({ values }, io) => {
	const { templates, fixtures } = values;
	// Stdin ending before the client's shutdown makes the connection exit 1, as the
	// protocol says, and silently: this listener, before the connection's, says why.
	let shutdown = false;
	process.stdin.once("end", () => {
		if (!shutdown)
			printDiagnostic(io, {
				severity: "error",
				message: "standard input ended before the client asked the server to shut down",
			});
	});
	const connection = startServer(process.stdin, process.stdout, {
		...(templates === undefined ? {} : { templates }),
		...(fixtures === undefined ? {} : { fixtures }),
	});
	connection.onShutdown(() => {
		shutdown = true;
	});
	// The connection ends the process on `exit`, as the protocol says; until then, serve.
	await new Promise<void>((done) => connection.onExit(done));
	return 0;
});

// The VS Code side of theway-context's language server: starts
// `theway-context lsp --stdio` for .hbs files, forwards changes to the
// templates, the lock, categories.yaml and fixture sessions, and adds one
// command that shows a template's rendering for a fixture beside the file.
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

/** The server's command line: the setting, the workspace's own install, or the PATH. */
function serverCommand() {
	const config = vscode.workspace.getConfiguration("theway-context");
	const [command, ...args] = config.get("command", []);
	if (command !== undefined) return { command, args: [...args, "lsp", "--stdio"] };
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		const local = join(folder.uri.fsPath, "node_modules", ".bin", "theway-context");
		if (existsSync(local)) return { command: local, args: ["lsp", "--stdio"] };
		const own = join(folder.uri.fsPath, "dist", "cli", "bin.cjs");
		if (existsSync(own)) return { command: process.execPath, args: [own, "lsp", "--stdio"] };
	}
	return { command: "theway-context", args: ["lsp", "--stdio"] };
}

function activate(context) {
	const config = vscode.workspace.getConfiguration("theway-context");
	const run = { ...serverCommand(), transport: TransportKind.stdio };
	const options = {};
	if (config.get("templates")) options.templates = config.get("templates");
	if (config.get("fixtures")) options.fixtures = config.get("fixtures");
	client = new LanguageClient(
		"theway-context",
		"theway-context templates",
		{ run, debug: run },
		{
			documentSelector: [{ scheme: "file", pattern: "**/*.hbs" }],
			initializationOptions: options,
			synchronize: {
				fileEvents: vscode.workspace.createFileSystemWatcher(
					"**/{*.hbs,lock.json,categories.yaml,*.jsonl}",
				),
			},
		},
	);
	context.subscriptions.push(
		vscode.commands.registerCommand("theway-context.renderBeside", renderBeside),
	);
	return client.start();
}

/** Asks for a fixture, renders the active template for it, and opens the text beside. */
async function renderBeside() {
	const editor = vscode.window.activeTextEditor;
	if (editor === undefined || client === undefined) return;
	const uri = editor.document.uri.toString();
	const run = (command, args) =>
		client.sendRequest("workspace/executeCommand", { command, arguments: [args] });
	const { fixtures } = await run("theway-context.fixtures", { uri });
	const fixture = await vscode.window.showQuickPick(fixtures, { placeHolder: "Fixture session" });
	if (fixture === undefined) return;
	try {
		const { text } = await run("theway-context.render", { uri, fixture });
		const doc = await vscode.workspace.openTextDocument({ content: text, language: "markdown" });
		await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside, true);
	} catch (error) {
		vscode.window.showErrorMessage(`theway-context: ${error.message}`);
	}
}

function deactivate() {
	return client?.stop();
}

module.exports = { activate, deactivate };

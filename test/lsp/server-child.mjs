// `theway-context lsp ARGS…` from its sources, through vite's module runner
// (no build needed): `node server-child.mjs --stdio ARGS…`.
import { join } from "node:path";
import { runnerImport } from "vite";

const root = join(import.meta.dirname, "../..");
const { module } = await runnerImport(join(root, "test/lsp/server-entry.ts"), {
	root,
	configFile: false,
	logLevel: "silent",
});
await module.runLsp(process.argv.slice(2));

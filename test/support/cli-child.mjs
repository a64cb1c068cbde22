// `theway-context serve` or `render` from its sources, through vite's module
// runner: `node cli-child.mjs serve|render ARGS…`.
import { join } from "node:path";
import { runnerImport } from "vite";

const root = join(import.meta.dirname, "../..");
const { module } = await runnerImport(join(root, "test/support/cli-entry.ts"), {
	root,
	configFile: false,
	logLevel: "silent",
});
const command = process.argv[2] === "render" ? module.runRender : module.runServe;
await command(process.argv.slice(3));

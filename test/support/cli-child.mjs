// `theway-context serve`, `render` or `inspect` from its sources, through vite's
// module runner: `node cli-child.mjs serve|render|inspect ARGS…`.
import { join } from "node:path";
import { runnerImport } from "vite";

const root = join(import.meta.dirname, "../..");
const { module } = await runnerImport(join(root, "test/support/cli-entry.ts"), {
	root,
	configFile: false,
	logLevel: "silent",
});
const commands = { render: module.runRender, inspect: module.runInspect, serve: module.runServe };
const command = commands[process.argv[2]] ?? module.runServe;
await command(process.argv.slice(3));

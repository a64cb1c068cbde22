// `node child.mjs inspect ARGS…`: a command from its sources, in a process of its own.
import { join } from "node:path";
import { runnerImport } from "vite";

const root = join(import.meta.dirname, "../../..");
const { module } = await runnerImport(join(root, "test/workbench/support/child-entry.ts"), {
	root,
	configFile: false,
	logLevel: "silent",
});
await module.runInspect(process.argv.slice(3));

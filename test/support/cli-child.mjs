// `theway-context serve` from its sources, through vite's module runner:
// `node cli-child.mjs serve ARGS…`.
import { join } from "node:path";
import { runnerImport } from "vite";

const root = join(import.meta.dirname, "../..");
const { module } = await runnerImport(join(root, "test/support/cli-entry.ts"), {
	root,
	configFile: false,
	logLevel: "silent",
});
await module.runServe(process.argv.slice(3));

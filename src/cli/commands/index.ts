/**
 * Every command: its declaration (options and help, from this folder,
 * light enough for any start) and its body, imported only when that command
 * runs, so `--help` and a usage error load no body, and `render` never loads
 * what `build` needs. The order is the order of the help's list.
 */
import type { DefinedCommand } from "../command.js";
import type { CommandSpec } from "../options.js";
import { BUILD } from "./build.js";
import { DIFF } from "./diff.js";
import { EVAL } from "./eval.js";
import { IMPORT } from "./import.js";
import { INSPECT } from "./inspect.js";
import { LSP } from "./lsp.js";
import { NEW_SET } from "./new-set.js";
import { PREVIEW } from "./preview.js";
import { RENDER } from "./render.js";
import { REPLAY } from "./replay.js";
import { SERVE } from "./serve.js";

/** A command: what it declares, and how to load what it does. */
export interface CommandEntry {
	spec: CommandSpec;
	load: () => Promise<DefinedCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
	{ spec: RENDER, load: async () => (await import("../render.js")).renderCommand },
	{ spec: INSPECT, load: async () => (await import("../inspect.js")).inspectCommand },
	{ spec: DIFF, load: async () => (await import("../diff.js")).diffCommand },
	{ spec: REPLAY, load: async () => (await import("../replay.js")).replayCommand },
	{ spec: EVAL, load: async () => (await import("../eval.js")).evalCommand },
	{ spec: PREVIEW, load: async () => (await import("../preview.js")).previewCommand },
	{ spec: IMPORT, load: async () => (await import("../import.js")).importCommand },
	{ spec: BUILD, load: async () => (await import("../build.js")).buildCommand },
	{ spec: SERVE, load: async () => (await import("../serve.js")).serveCommand },
	{ spec: LSP, load: async () => (await import("../lsp.js")).lspCommand },
	{ spec: NEW_SET, load: async () => (await import("../new-set.js")).newSetCommand },
];

/** The command named `name`, if there is one. */
export function commandNamed(name: string): CommandEntry | undefined {
	return COMMANDS.find((c) => c.spec.name === name);
}

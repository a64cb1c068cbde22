/**
 * `--tools FILE` (option-groups.ts `TOOLS`), read: the manifest's tool
 * definitions, and the load options that make them the session's tools.
 * Every command that takes the option reads it here, so a manifest means
 * the same everywhere: its names are the inventory the system prompt lists
 * (in place of the session's tools metadata), and a request (`render
 * --format anthropic|openai`, `eval`) declares its definitions.
 */
import type { ViewOptions } from "../view/derive.js";
import type { ToolDefinition } from "../view/tools-manifest.js";
import { readOptionFile } from "./io.js";

/**
 * The tool definitions of the manifest at `path` (resolved already);
 * undefined when none is given. The parser (YAML, zod) is loaded only then,
 * so a command run without a manifest starts without it.
 */
export async function readToolsOption(
	path: string | undefined,
): Promise<ToolDefinition[] | undefined> {
	if (path === undefined) return undefined;
	const { parseToolsManifest } = await import("../view/tools-manifest.js");
	return parseToolsManifest(readOptionFile(path, "the tools manifest"), path);
}

/** The load options giving a session the manifest's tools (none: the session's own). */
export function toolsView(
	manifest: readonly ToolDefinition[] | undefined,
): Pick<ViewOptions, "tools"> {
	return manifest === undefined ? {} : { tools: manifest.map((t) => t.name) };
}

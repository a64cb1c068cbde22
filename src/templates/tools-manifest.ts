/**
 * A tools manifest: the tool definitions a model call declares, from a JSON
 * or YAML file. Each item is a tool's name, or a full definition (`name`,
 * `description`, `parameters` as a JSON Schema object), as the providers'
 * tool lists take them. Validated with zod and located like every file the
 * project reads (YAML 1.2 reads JSON too), every problem at once.
 */
import { z } from "zod";
import { parseYaml, validateYaml } from "./yaml.js";

const DefinitionSchema = z.strictObject({
	name: z.string().min(1),
	description: z.string().optional(),
	parameters: z
		.record(z.string(), z.unknown())
		.optional()
		.describe("A JSON Schema of the tool's arguments (an object schema)"),
});

const ManifestSchema = z
	.array(z.union([z.string().min(1), DefinitionSchema]))
	.superRefine((items, ctx) => {
		const seen = new Set<string>();
		items.forEach((item, i) => {
			const name = typeof item === "string" ? item : item.name;
			if (seen.has(name)) {
				ctx.addIssue({
					code: "custom",
					path: [i],
					message: `tool ${JSON.stringify(name)} is listed twice`,
				});
			}
			seen.add(name);
		});
	});

/** One tool a call declares: its name, and what the provider is told of it when known. */
export interface ToolDefinition {
	name: string;
	description?: string;
	/** A JSON Schema of its arguments; absent: any object. */
	parameters?: Record<string, unknown>;
}

/** The tool definitions of a manifest's text; `file` names it in errors (code `bad_tools`). */
export function parseToolsManifest(text: string, file: string): ToolDefinition[] {
	const parsed = parseYaml(text, file, "bad_tools");
	const items = validateYaml(ManifestSchema, parsed, file, "bad_tools", "tools manifest");
	return items.map((item) => {
		if (typeof item === "string") return { name: item };
		const { name, description, parameters } = item;
		return {
			name,
			...(description === undefined ? {} : { description }),
			...(parameters === undefined ? {} : { parameters }),
		};
	});
}

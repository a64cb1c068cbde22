/** `render`, declared: its options and help (the body is ../render.ts, loaded when it runs). */

import { BRANCH, output, REQUEST, SET, STRICTNESS, TEMPLATES, TOOLS } from "../option-groups.js";
import { declareCommand } from "../options.js";

/** An option that shapes a request body, refused with the other formats. */
function requestOnly(name: string) {
	return (values: Readonly<Record<string, unknown>>) =>
		values.format === "anthropic" || values.format === "openai"
			? undefined
			: `--${name} shapes a request body: give --format anthropic or openai`;
}

export const RENDER = declareCommand({
	name: "render",
	summary: "print the context bundle of a session log",
	synopsis: "<session.jsonl> [options]",
	args: { name: "<session.jsonl>", count: "one" },
	description: `Prints the context bundle of a session log (- reads it from standard input):
the system prompt and the messages.`,
	options: {
		...output(
			["text", "json", "llm", "anthropic", "openai"],
			`text: for people; long tool results cut to their first lines (--full shows all)
json: {"systemPrompt", "messages", "meta"}
llm: {"systemPrompt", "messages"} as pi's convertToLlm gives them to a provider
anthropic, openai: the request body eval sends for this leaf (Messages API, Chat Completions)`,
		),
		...BRANCH,
		...TOOLS,
		memory: {
			type: "string",
			value: "TEXT",
			empty: true,
			help: "the memory text (empty: none)",
			defaultHelp: "the session's memory metadata",
		},
		cwd: {
			type: "string",
			value: "DIR",
			help: "the working directory",
			defaultHelp: "metadata, then the header",
		},
		...TEMPLATES,
		...SET,
		...STRICTNESS,
		full: {
			type: "boolean",
			help: "text: show long tool results and output whole",
			check: (values) =>
				values.format === "text"
					? undefined
					: `--full shapes the text output; --format ${values.format} always holds everything`,
		},
		"no-virtualize": {
			type: "boolean",
			help: "every tool result whole, as pi sends it (by default, one over the set's threshold reaches the model as a stub naming its entry; json lists them in meta.virtualized)",
		},
		model: {
			type: "string",
			value: "ID",
			check: requestOnly("model"),
			help: "anthropic, openai: the model id",
			defaultHelp: "the session's model at the leaf",
		},
		"max-tokens": { ...REQUEST["max-tokens"], check: requestOnly("max-tokens") },
		temperature: { ...REQUEST.temperature, check: requestOnly("temperature") },
		"base-url": {
			...REQUEST["base-url"],
			check: requestOnly("base-url"),
			help: "the endpoint eval would send to: an OpenAI-compatible server is given max_tokens, OpenAI's own API max_completion_tokens; an anthropic body is the same at any endpoint",
			defaultHelp: "OPENAI_BASE_URL",
		},
	},
});

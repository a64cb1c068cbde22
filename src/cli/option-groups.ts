/**
 * The options several commands take, each declared once (the layer:
 * options.ts). A command takes a group by spreading it into its options,
 * so `--templates` or `--strict` means, checks and documents the same on
 * every command that has it. A group is named by its options' `group`, as
 * the CLI reference lists it.
 */
import { availableParallelism } from "node:os";
import { DEFAULT_MAX_TOKENS } from "../eval/settings.js";
import { TOKENIZER_NAMES } from "../text/tokenizer-names.js";
import type { OptionSpec } from "./options.js";

/** `--templates DIR`: the folder of template sets. */
export const TEMPLATES = {
	templates: {
		type: "path",
		value: "DIR",
		exists: "dir",
		group: "templates",
		help: "the templates folder",
		defaultHelp: "the bundled templates/",
	},
} as const satisfies Record<string, OptionSpec>;

/** `--template-version V`: one set of the templates folder, whatever the session pins. */
export const SET = {
	"template-version": {
		type: "string",
		value: "V",
		group: "set",
		help: "use template set V of the templates folder, whatever the session pins",
	},
} as const satisfies Record<string, OptionSpec>;

/** `--leaf ID`: where the branch ends. */
export const BRANCH = {
	leaf: {
		type: "string",
		value: "ID",
		group: "branch",
		help: "end the branch at entry ID instead of the latest entry",
	},
} as const satisfies Record<string, OptionSpec>;

/** How damaged input is met: refused, or repaired and told (or repaired quietly). */
export const STRICTNESS = {
	strict: {
		type: "boolean",
		group: "strictness",
		conflicts: "lenient",
		help: "refuse damaged input with a located error (by default, what cannot be read as it is is skipped or repaired, each one listed on stderr, as pi reads it)",
	},
	lenient: {
		type: "boolean",
		group: "strictness",
		help: "the default (kept as an alias)",
	},
	quiet: { type: "boolean", group: "strictness", help: "do not print warnings" },
} as const satisfies Record<string, OptionSpec>;

/** `--tokenizer T`: how tokens are counted (the body reads it: a name or a table file). */
export const TOKENIZER = {
	tokenizer: {
		type: "string",
		value: "T",
		default: "auto",
		group: "tokenizer",
		help: `how tokens are counted: auto (each model's own tokenizer, else its family's calibrated estimate), ${TOKENIZER_NAMES.join(", ")} (chars: characters / 4), or a table FILE written by replay --calibrate`,
	},
} as const satisfies Record<string, OptionSpec>;

/** `--prices FILE`: the price table of the commands that cost calls. */
export const PRICES = {
	prices: {
		type: "path",
		value: "FILE",
		exists: "any",
		group: "prices",
		help: "a price table (YAML, $ per million tokens) checked before the bundled price database",
	},
} as const satisfies Record<string, OptionSpec>;

/** What shapes a model request: the output cap, the temperature, the endpoint. */
export const REQUEST = {
	"max-tokens": {
		type: "integer",
		value: "N",
		min: 1,
		default: DEFAULT_MAX_TOKENS,
		group: "request",
		help: "the output cap of each request",
	},
	temperature: {
		type: "number",
		value: "T",
		min: 0,
		group: "request",
		help: "the sampling temperature",
		defaultHelp: "the provider's",
	},
	"base-url": {
		type: "string",
		value: "URL",
		group: "request",
		help: "the SDK's base URL (Anthropic's without /v1, OpenAI's with it: http://localhost:11434/v1 for Ollama)",
		defaultHelp: "ANTHROPIC_BASE_URL or OPENAI_BASE_URL, else the provider's own",
	},
} as const satisfies Record<string, OptionSpec>;

/** `--jobs N`: the worker threads of a command over many sessions. */
export const CORPUS = {
	jobs: {
		type: "integer",
		value: "N",
		min: 1,
		default: () => availableParallelism(),
		defaultHelp: "one per core",
		group: "corpus",
		help: "worker threads",
	},
} as const satisfies Record<string, OptionSpec>;

/**
 * `--tools FILE`: a tools manifest (JSON or YAML, a list of tool names or
 * definitions; ../view/tools-manifest.ts), the session's tools: the
 * inventory the prompt lists and the tools a request declares. A command's
 * body reads it with `readToolsOption` (tools-option.ts).
 */
export const TOOLS = {
	tools: {
		type: "path",
		value: "FILE",
		exists: "any",
		group: "tools",
		help: "a tools manifest: the session's tools, a JSON or YAML list of names or of {name, description, parameters} (docs/guide.md); requests declare them",
		defaultHelp: "the session's tools metadata",
	},
} as const satisfies Record<string, OptionSpec>;

/** `--pretty`: JSON indented wherever it goes (so it refuses text). */
const PRETTY = {
	type: "boolean",
	group: "output",
	help: "indent the JSON on a pipe or in a file too (on a terminal it is indented; elsewhere it is one line, the same value)",
	check: (values: Readonly<Record<string, unknown>>) =>
		values.format === "text" ? "--pretty indents JSON, and --format text is not JSON" : undefined,
} as const satisfies OptionSpec;

/**
 * `--format` (text, json, and whatever else `choices` adds; `help` says what
 * each holds, so it differs by command) and `--pretty`.
 */
export function output<const C extends readonly ["text", ...string[]]>(choices: C, help: string) {
	return {
		format: { type: "choice", choices, group: "output", help },
		pretty: PRETTY,
	} as const satisfies Record<string, OptionSpec>;
}

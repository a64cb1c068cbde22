/** `theway-context render`: a session log's context bundle, for people or programs. */

import { resolve } from "node:path";
import { STDIN } from "../log/read.js";
import type { LoadOptions } from "../service/bundle.js";
import { ContextService } from "../service/context-service.js";
import { TemplateRegistry } from "../templates/registry.js";
import {
	branchOptions,
	choiceOption,
	defineCommand,
	guardLength,
	oneSession,
	PRETTY_HELP,
	PRETTY_OPTION,
	printJson,
	printWarnings,
	SESSION_OPTIONS,
	templatesOption,
} from "./io.js";
import { usageError } from "./usage.js";

export const RENDER_USAGE = `Usage: theway-context render <session.jsonl> [options]

Prints the context bundle of a session log (- reads it from standard input):
the system prompt and the messages.

Options:
  --format text|json|llm|anthropic|openai
                           text (default): for people; long tool results cut
                           to their first lines (--full shows all)
                           json: {"systemPrompt", "messages", "meta"}
                           llm: {"systemPrompt", "messages"} as pi's convertToLlm
                           gives them to a provider
                           anthropic, openai: the request body eval sends for
                           this leaf (Messages API, Chat Completions)
  --leaf ID                end the branch at entry ID instead of the latest entry
  --tools a,b,c            the tool inventory (default: the session's tools metadata)
  --memory TEXT            the memory text (default: the session's memory metadata)
  --cwd DIR                the working directory (default: metadata, then the header)
  --templates DIR          the templates folder (default: the bundled templates/)
  --template-version V     render with template set V, whatever the session pins
  --strict                 refuse damaged input with a located error (by default,
                           damaged lines are skipped and repairs made, each one
                           listed on stderr, as pi reads them)
  --lenient                the default (kept as an alias)
  --full                   text: show long tool results and output whole
  --no-virtualize          every tool result whole, as pi sends it (by default,
                           one over the set's threshold reaches the model as a
                           stub naming its entry; json lists them in
                           meta.virtualized)
  --model ID               anthropic, openai: the model id (default: the
                           session's model at the leaf)
  --max-tokens N           anthropic, openai: the output cap (default 4096)
  --temperature T          anthropic, openai: the sampling temperature (default:
                           the provider's)
  --tools-file FILE        anthropic, openai: the tool definitions (JSON or YAML,
                           as eval's --tools FILE; default: the session's tools
                           with an open object schema)
  --base-url URL           the endpoint eval would send to: an OpenAI-compatible
                           server is given max_tokens, OpenAI's own API
                           max_completion_tokens (default: OPENAI_BASE_URL);
                           an anthropic body is the same at any endpoint
${PRETTY_HELP}
  --quiet                  do not print warnings
  -h, --help               this help
`;

const OPTIONS = {
	format: { type: "string" },
	tools: { type: "string" },
	memory: { type: "string" },
	cwd: { type: "string" },
	full: { type: "boolean" },
	"no-virtualize": { type: "boolean" },
	model: { type: "string" },
	"max-tokens": { type: "string" },
	temperature: { type: "string" },
	"tools-file": { type: "string" },
	"base-url": { type: "string" },
	...PRETTY_OPTION,
	...SESSION_OPTIONS,
} as const;

export const renderCommand = defineCommand(
	OPTIONS,
	RENDER_USAGE,
	async ({ values, positionals }, io) => {
		const session = oneSession(positionals, RENDER_USAGE);
		const format = choiceOption(
			values.format,
			"format",
			["text", "json", "llm", "anthropic", "openai"],
			RENDER_USAGE,
		);
		const request = format === "anthropic" || format === "openai";
		for (const flag of ["model", "max-tokens", "temperature", "tools-file", "base-url"] as const) {
			if (values[flag] !== undefined && !request) {
				throw usageError(
					`--${flag} shapes a request body: give --format anthropic or openai`,
					RENDER_USAGE,
				);
			}
		}
		if (values.full === true && format !== "text") {
			throw usageError(
				`--full shapes the text output; --format ${format} always holds everything`,
				RENDER_USAGE,
			);
		}
		if (values.pretty === true && format === "text") {
			throw usageError("--pretty indents JSON: give --format json or llm", RENDER_USAGE);
		}
		// A one-off process: the file read with blocking reads (no round trips
		// through the thread pool), and only the set it renders with made ready.
		const registry = TemplateRegistry.for(templatesOption(values.templates, io).templates);
		const service = new ContextService({ registry, strict: values.strict === true });
		const options: LoadOptions = {
			...branchOptions(values),
			...(values["no-virtualize"] === true ? { virtualize: false } : {}),
			...(values.tools === undefined ? {} : { tools: splitList(values.tools) }),
			...(values.memory === undefined ? {} : { memory: values.memory }),
			...(values.cwd === undefined ? {} : { cwd: values.cwd }),
		};
		if (request) {
			const { renderRequest } = await import("./render-request.js");
			return await renderRequest(service, session, options, format, values, io, RENDER_USAGE);
		}
		const { bundle } =
			session === STDIN
				? await service.compose(session, options)
				: await service.composeOnce(resolve(io.cwd, session), options);
		printWarnings(io, bundle.meta.diagnostics, values.quiet);
		if (format === "json") {
			printJson(
				io,
				{ systemPrompt: bundle.systemPrompt, messages: bundle.messages, meta: bundle.meta },
				{ file: bundle.meta.file, pretty: values.pretty === true },
			);
		} else if (format === "llm") {
			const messages = service.convertToLlm(bundle);
			printJson(
				io,
				{ systemPrompt: bundle.systemPrompt, messages },
				{ file: bundle.meta.file, pretty: values.pretty === true },
			);
		} else {
			const { writeText } = await import("./text-output.js"); // text only
			const convert = service.converter(bundle);
			guardLength(
				() => writeText(bundle, convert, io.stdout, { full: values.full === true }),
				bundle.meta.file,
			);
		}
		return 0;
	},
);

function splitList(list: string): string[] {
	return list
		.split(",")
		.map((s) => s.trim())
		.filter((s) => s !== "");
}

/** `theway-context render`: a session log's context bundle, for people or programs. */
import { resolve } from "node:path";
import { usageError } from "../errors.js";
import { STDIN } from "../log/read.js";
import { ContextService, type LoadOptions } from "../service.js";
import { TemplateRegistry } from "../templates/registry.js";
import { guardLength, type Io, parseCommandArgs, printDiagnostic, printJson } from "./io.js";

export const RENDER_USAGE = `Usage: theway-context render <session.jsonl> [options]

Prints the context bundle of a session log (- reads it from standard input):
the system prompt and the messages.

Options:
  --format text|json|llm   text (default): for people; long tool results cut
                           to their first lines (--full shows all)
                           json: {"systemPrompt", "messages", "meta"}
                           llm: {"systemPrompt", "messages"} as a provider gets them
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
  --quiet                  do not print warnings
  -h, --help               this help
`;

const OPTIONS = {
	format: { type: "string" },
	leaf: { type: "string" },
	tools: { type: "string" },
	memory: { type: "string" },
	cwd: { type: "string" },
	templates: { type: "string" },
	"template-version": { type: "string" },
	strict: { type: "boolean" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	full: { type: "boolean" },
	help: { type: "boolean", short: "h" },
} as const;

const FORMATS = ["text", "json", "llm"] as const;

export async function renderCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseCommandArgs(args, OPTIONS, RENDER_USAGE);
	if (values.help === true) {
		io.stdout(RENDER_USAGE);
		return 0;
	}
	if (positionals.length !== 1) {
		throw usageError(
			positionals.length === 0 ? "missing <session.jsonl>" : "expected one session log",
			RENDER_USAGE,
		);
	}
	const format = values.format ?? "text";
	if (!(FORMATS as readonly string[]).includes(format)) {
		throw usageError(`--format must be one of ${FORMATS.join(", ")}`, RENDER_USAGE);
	}
	// A one-off process: the file read with blocking reads (no round trips
	// through the thread pool), once the sets it may render with are ready.
	const registry = TemplateRegistry.for(
		values.templates === undefined ? undefined : resolve(io.cwd, values.templates),
	);
	await registry.ready();
	const service = new ContextService({ registry, strict: values.strict === true });
	const session = positionals[0] as string;
	const options: LoadOptions = {
		...(values.leaf === undefined ? {} : { leaf: values.leaf }),
		...(values.tools === undefined ? {} : { tools: splitList(values.tools) }),
		...(values.memory === undefined ? {} : { memory: values.memory }),
		...(values.cwd === undefined ? {} : { cwd: values.cwd }),
		...(values["template-version"] === undefined
			? {}
			: { templateVersion: values["template-version"] }),
	};
	const bundle =
		session === STDIN
			? await service.load(session, options)
			: service.loadSync(resolve(io.cwd, session), options);
	if (values.quiet !== true) {
		for (const d of bundle.meta.diagnostics) printDiagnostic(io, d);
	}
	if (format === "json") {
		printJson(
			io,
			{ systemPrompt: bundle.systemPrompt, messages: bundle.messages, meta: bundle.meta },
			bundle.meta.file,
		);
	} else if (format === "llm") {
		const messages = service.convertToLlm(bundle);
		printJson(io, { systemPrompt: bundle.systemPrompt, messages }, bundle.meta.file);
	} else {
		const { writeText } = await import("../render/text.js"); // text only
		const set = service.templateSet(bundle.meta.templateVersion);
		guardLength(
			() => writeText(bundle, set, io.stdout, { full: values.full === true }),
			bundle.meta.file,
		);
	}
	return 0;
}

function splitList(list: string): string[] {
	return list
		.split(",")
		.map((s) => s.trim())
		.filter((s) => s !== "");
}

/** `theway-context render`: a session log's context bundle, for people or programs. */
import { resolve } from "node:path";
import { ContextError, formatDiagnostic, usageError } from "../errors.js";
import { type ContextBundle, ContextService } from "../service.js";
import type { CollapseContextMessage, ContextMessage } from "../session/messages.js";
import { type Io, parseCommandArgs } from "./io.js";

export const RENDER_USAGE = `Usage: theway-context render <session.jsonl> [options]

Prints the context bundle of a session log (- reads it from standard input):
the system prompt and the messages.

Options:
  --format text|json|llm   text (default): for people
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
	const service = new ContextService({
		...(values.templates === undefined ? {} : { templates: resolve(io.cwd, values.templates) }),
		strict: values.strict === true,
	});
	const session = positionals[0] as string;
	const bundle = await service.load(session === "-" ? session : resolve(io.cwd, session), {
		...(values.leaf === undefined ? {} : { leaf: values.leaf }),
		...(values.tools === undefined ? {} : { tools: splitList(values.tools) }),
		...(values.memory === undefined ? {} : { memory: values.memory }),
		...(values.cwd === undefined ? {} : { cwd: values.cwd }),
		...(values["template-version"] === undefined
			? {}
			: { templateVersion: values["template-version"] }),
	});
	if (values.quiet !== true) {
		for (const d of bundle.meta.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
	}
	if (format === "json") {
		io.stdout(
			toJson({ systemPrompt: bundle.systemPrompt, messages: bundle.messages, meta: bundle.meta }),
		);
	} else if (format === "llm") {
		const messages = service.convertToLlm(bundle);
		io.stdout(toJson({ systemPrompt: bundle.systemPrompt, messages }));
	} else {
		io.stdout(formatText(bundle));
	}
	return 0;
}

/** Pretty JSON; a message nested too deeply to print is a clear error, not a crash. */
function toJson(value: unknown): string {
	try {
		return `${JSON.stringify(value, null, 2)}\n`;
	} catch (error) {
		if (!(error instanceof RangeError)) throw error;
		throw new ContextError("render", "a message is nested too deeply to print as JSON");
	}
}

function splitList(list: string): string[] {
	return list
		.split(",")
		.map((s) => s.trim())
		.filter((s) => s !== "");
}

/** The bundle for people: the system prompt, then each message with its role. */
export function formatText(bundle: ContextBundle): string {
	const { meta } = bundle;
	const model = meta.model === null ? "unknown" : `${meta.model.provider}/${meta.model.modelId}`;
	const lines = [
		`# session ${meta.sessionId}, leaf ${meta.leafId ?? "(none)"}, ${meta.entryCount} entries`,
		`# templates ${meta.templateVersion} (${meta.templateFingerprint.slice(0, 12)}), model ${model}, thinking ${meta.thinkingLevel ?? "unknown"}`,
		"",
		"===== system prompt =====",
		bundle.systemPrompt,
		"",
		`===== messages (${bundle.messages.length}) =====`,
	];
	bundle.messages.forEach((message, i) => {
		lines.push("", `--- ${i + 1}. ${message.role} ---`, describe(message));
	});
	return `${lines.join("\n")}\n`;
}

function describe(message: ContextMessage): string {
	if (message.role === "collapse_context")
		return (message as CollapseContextMessage).payload.summary;
	switch (message.role) {
		case "compactionSummary":
		case "branchSummary":
			return message.summary;
		case "bashExecution":
			return `$ ${message.command}\n${message.output}`;
		case "toolResult":
			return `[${message.toolName}] ${contentText(message.content)}`;
		case "custom":
			return `[${message.customType}] ${contentText(message.content)}`;
		default:
			return contentText(message.content);
	}
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block: Record<string, unknown>) => {
			switch (block.type) {
				case "text":
					return String(block.text);
				case "thinking":
					return `[thinking] ${String(block.thinking)}`;
				case "toolCall":
					return `[call ${String(block.name)}] ${JSON.stringify(block.arguments)}`;
				case "image":
					return `[image ${String(block.mimeType)}]`;
				default:
					return `[${String(block.type)}]`;
			}
		})
		.join("\n");
}

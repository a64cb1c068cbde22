/** `theway-context inspect`: what the model sees of a session, measured part by part. */
import { resolve } from "node:path";
import { usageError } from "../errors.js";
import { formatSize } from "../measure/format.js";
import { measureLoaded, measuringService } from "../measure/session.js";
import { isTokenizerName, loadTokenizer, TOKENIZER_NAMES } from "../measure/tokenizer.js";
import { type Io, parseCommandArgs, printDiagnostic, printJson } from "./io.js";

export const INSPECT_USAGE = `Usage: theway-context inspect <session.jsonl> [options]

Measures what the model sees: each system-prompt section (and the template
parts it is made of), each provider-ready message, the total, the
cache-stable prefix, budgets, and the usage the log recorded.

Options:
  --format text|json       text (default): a table with bars; json: the measures
  --tokenizer NAME         o200k (default), cl100k, or chars (characters / 4)
  --leaf ID                end the branch at entry ID instead of the latest entry
  --templates DIR          the templates folder (default: the bundled templates/)
  --template-version V     measure with template set V, whatever the session pins
  --lenient                skip damaged lines (each one listed on stderr)
  --quiet                  do not print warnings
  -h, --help               this help
`;

const OPTIONS = {
	format: { type: "string" },
	tokenizer: { type: "string" },
	leaf: { type: "string" },
	templates: { type: "string" },
	"template-version": { type: "string" },
	lenient: { type: "boolean" },
	quiet: { type: "boolean" },
	help: { type: "boolean", short: "h" },
} as const;

export async function inspectCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseCommandArgs(args, OPTIONS, INSPECT_USAGE);
	if (values.help === true) {
		io.stdout(INSPECT_USAGE);
		return 0;
	}
	if (positionals.length !== 1) {
		throw usageError(
			positionals.length === 0 ? "missing <session.jsonl>" : "expected one session log",
			INSPECT_USAGE,
		);
	}
	const format = values.format ?? "text";
	if (format !== "text" && format !== "json") {
		throw usageError("--format must be text or json", INSPECT_USAGE);
	}
	const name = values.tokenizer ?? "o200k";
	if (!isTokenizerName(name)) {
		throw usageError(`--tokenizer must be one of ${TOKENIZER_NAMES.join(", ")}`, INSPECT_USAGE);
	}
	const tokenizer = await loadTokenizer(name);
	const target = measuringService({
		...(values.templates === undefined ? {} : { templates: resolve(io.cwd, values.templates) }),
		lenient: values.lenient === true,
	});
	const { bundle, size } = measureLoaded(
		target,
		resolve(io.cwd, positionals[0] as string),
		tokenizer,
		{
			...(values.leaf === undefined ? {} : { leaf: values.leaf }),
			...(values["template-version"] === undefined
				? {}
				: { templateVersion: values["template-version"] }),
		},
	);
	if (values.quiet !== true) for (const d of bundle.meta.diagnostics) printDiagnostic(io, d);
	if (format === "json") printJson(io, size, bundle.meta.file);
	else {
		const { meta } = bundle;
		io.stdout(
			formatSize(
				size,
				`${meta.file} · session ${meta.sessionId} · leaf ${meta.leafId ?? "(none)"} · templates ${meta.templateVersion}`,
			),
		);
	}
	return 0;
}

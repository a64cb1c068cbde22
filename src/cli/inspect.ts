/** `theway-context inspect`: what the model sees of a session, measured part by part. */
import { resolve } from "node:path";
import { STDIN } from "../log/read.js";
import { formatSize } from "../measure/format.js";
import { measureLoaded, measuringService } from "../measure/session.js";
import { Units } from "../measure/units.js";
import {
	branchOptions,
	choiceOption,
	defineCommand,
	oneSession,
	PRETTY_HELP,
	PRETTY_OPTION,
	printJson,
	printWarnings,
	SESSION_OPTIONS,
	templatesOption,
} from "./io.js";
import { TOKENIZER_HELP, unitsOption } from "./units-option.js";

export const INSPECT_USAGE = `Usage: theway-context inspect <session.jsonl> [options]

Measures what the model sees: each system-prompt section (and the template
parts it is made of), each provider-ready message, the total, the
cache-stable prefix, budgets, and the usage the log recorded.

Options:
  --format text|json       text (default): a table with bars; json: the measures
${TOKENIZER_HELP}
  --leaf ID                end the branch at entry ID instead of the latest entry
  --templates DIR          the templates folder (default: the bundled templates/)
  --template-version V     measure with template set V, whatever the session pins
  --strict                 refuse damaged input with a located error (by default,
                           damaged lines are skipped and repairs made, each one
                           listed on stderr, as pi reads them)
  --lenient                the default (kept as an alias)
${PRETTY_HELP}
  --quiet                  do not print warnings
  -h, --help               this help
`;

const OPTIONS = {
	format: { type: "string" },
	tokenizer: { type: "string" },
	...PRETTY_OPTION,
	...SESSION_OPTIONS,
} as const;

export const inspectCommand = defineCommand(
	OPTIONS,
	INSPECT_USAGE,
	async ({ values, positionals }, io) => {
		const session = oneSession(positionals, INSPECT_USAGE);
		const format = choiceOption(values.format, "format", ["text", "json"], INSPECT_USAGE);
		const tokenizer = new Units(unitsOption(values.tokenizer, io, INSPECT_USAGE));
		const target = measuringService({
			...templatesOption(values.templates, io),
			strict: values.strict === true,
		});
		const { bundle, size } = measureLoaded(
			target,
			session === STDIN ? session : resolve(io.cwd, session),
			tokenizer,
			branchOptions(values),
		);
		printWarnings(io, bundle.meta.diagnostics, values.quiet);
		if (format === "json")
			printJson(io, size, { file: bundle.meta.file, pretty: values.pretty === true });
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
	},
);

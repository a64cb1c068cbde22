/** `theway-context build`: checks every template set in a templates folder. */
import { resolve } from "node:path";
import { compileTemplateSet } from "../templates/compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "../templates/load.js";
import { type Io, parseCommandArgs } from "./io.js";

export const BUILD_USAGE = `Usage: theway-context build [--templates DIR]

Checks every template set: front-matter, section order, and every path,
helper and partial against the view-models.

Options:
  --templates DIR   the templates folder (default: the bundled templates/)
  -h, --help        this help
`;

const OPTIONS = {
	templates: { type: "string" },
	help: { type: "boolean", short: "h" },
} as const;

export async function buildCommand(args: string[], io: Io): Promise<number> {
	const { values } = parseCommandArgs(args, OPTIONS, BUILD_USAGE);
	if (values.help === true) {
		io.stdout(BUILD_USAGE);
		return 0;
	}
	const dir = values.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(io.cwd, values.templates);
	for (const source of readTemplateSets(dir).values()) {
		const set = compileTemplateSet(source);
		io.stdout(`ok ${set.version} (${Object.keys(set.templateVersions).length} templates, ${set.fingerprint.slice(0, 12)})\n`);
	}
	return 0;
}

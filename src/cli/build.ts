/** `theway-context build`: checks the template sets, then every fixture against its snapshot. */
import { join, resolve } from "node:path";
import { checkFixtures } from "../build/fixtures.js";
import { compileTemplateSet } from "../templates/compile.js";
import { DEFAULT_TEMPLATES_DIR, readTemplateSets } from "../templates/load.js";
import { type Io, parseCommandArgs } from "./io.js";

export const BUILD_USAGE = `Usage: theway-context build [--update] [options]

Checks every template set (front-matter, section order, every path, helper and
partial against the view-models), then renders every fixture session and
compares it with its snapshot.

Options:
  --update           rewrite the snapshots that drifted, and say what changed
  --templates DIR    the templates folder (default: the bundled templates/)
  --fixtures DIR     fixture sessions (default: ./test/fixtures)
  --snapshots DIR    their snapshots (default: ./snapshots)
  -h, --help         this help
`;

const OPTIONS = {
	update: { type: "boolean" },
	templates: { type: "string" },
	fixtures: { type: "string" },
	snapshots: { type: "string" },
	help: { type: "boolean", short: "h" },
} as const;

export async function buildCommand(args: string[], io: Io): Promise<number> {
	const { values } = parseCommandArgs(args, OPTIONS, BUILD_USAGE);
	if (values.help === true) {
		io.stdout(BUILD_USAGE);
		return 0;
	}
	const templates =
		values.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(io.cwd, values.templates);
	for (const source of readTemplateSets(templates).values()) {
		const set = compileTemplateSet(source);
		io.stdout(
			`ok templates ${set.version}: ${Object.keys(set.templateVersions).length} templates checked\n`,
		);
	}
	const results = checkFixtures({
		fixtures: resolve(io.cwd, values.fixtures ?? join("test", "fixtures")),
		snapshots: resolve(io.cwd, values.snapshots ?? "snapshots"),
		templates,
		update: values.update === true,
	});
	let failed = 0;
	for (const r of results) {
		if (r.status === "ok") continue;
		if (r.status === "written") {
			io.stdout(`updated ${r.snapshot}\n${r.diff === "" ? "" : `${r.diff}\n`}`);
		} else {
			failed++;
			io.stderr(
				r.status === "missing"
					? `error: ${r.fixture}: no snapshot at ${r.snapshot} (run with --update)\n`
					: `error: ${r.fixture}: rendering drifted from ${r.snapshot} (- snapshot, + rendering):\n${r.diff}\n`,
			);
		}
	}
	io.stdout(`${results.length - failed} of ${results.length} fixtures match their snapshots\n`);
	return failed === 0 ? 0 : 1;
}

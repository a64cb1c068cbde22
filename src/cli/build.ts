/** `theway-context build`: the build step (`src/check/`), printed for people. */
import { join, resolve } from "node:path";
import { runCheck } from "../check/run.js";
import { formatDiagnostic } from "../errors.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { type Io, parseCommandArgs } from "./io.js";

export const BUILD_USAGE = `Usage: theway-context build [--update] [options]

Checks every template set (front-matter, section order, every path, helper
and partial against the view-models) and the versions against the lock,
writes the precompiled sets, then renders every fixture session against its
snapshot and every README example against the real rendering.

Options:
  --update           rewrite the lock (once versions are bumped), the drifted
                     snapshots and README examples, and print what changed
  --templates DIR    the templates folder (default: the bundled templates/)
  --fixtures DIR     fixture sessions (default: ./test/fixtures)
  --snapshots DIR    their snapshots (default: ./snapshots)
  --readme FILE      the README to check (default: ./README.md, if present)
  -h, --help         this help
`;

const OPTIONS = {
	update: { type: "boolean" },
	templates: { type: "string" },
	fixtures: { type: "string" },
	snapshots: { type: "string" },
	readme: { type: "string" },
	help: { type: "boolean", short: "h" },
} as const;

export async function buildCommand(args: string[], io: Io): Promise<number> {
	const { values } = parseCommandArgs(args, OPTIONS, BUILD_USAGE);
	if (values.help === true) {
		io.stdout(BUILD_USAGE);
		return 0;
	}
	const { errors } = runCheck(
		{
			templates:
				values.templates === undefined ? DEFAULT_TEMPLATES_DIR : resolve(io.cwd, values.templates),
			fixtures: resolve(io.cwd, values.fixtures ?? join("test", "fixtures")),
			snapshots: resolve(io.cwd, values.snapshots ?? "snapshots"),
			readme: resolve(io.cwd, values.readme ?? "README.md"),
			update: values.update === true,
		},
		{
			info: (text) => io.stdout(`${text}\n`),
			diagnostic: (d) => io.stderr(`${formatDiagnostic(d)}\n`),
		},
	);
	if (errors.length === 0) return 0;
	io.stderr(`build failed: ${errors.length} error${errors.length === 1 ? "" : "s"}\n`);
	return 1;
}

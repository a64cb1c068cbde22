/** `theway-context new-set`: the next template set, copied from the newest, for people. */
import { relative } from "node:path";
import { makeNextSet } from "../check/new-set.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { defineCommand, HELP_OPTION, templatesOption } from "./io.js";
import { usageError } from "./usage.js";

/** When to bump a template in place, when to make a set: said by --help and after a new set. */
export const BUMP_OR_SET = `Bump in place or make a new set?
  A session renders with the set it pins (templateVersion), else the newest.
  - Bump a template in place (edit it, raise its version, npm run snapshots)
    when every session should get the change, the pinned ones included: the
    prompt of every session pinned to that set changes (their prompt caches
    start again).
  - Make a new set (new-set, then edit and bump there) when sessions already
    pinned to a set must keep their prompt byte for byte: they stay on the old
    set, and sessions that pin none get the new one, the newest.
`;

export const NEW_SET_USAGE = `Usage: theway-context new-set [--templates DIR]

Copies the newest template set to the next version (v2 to v3: its templates
and its own categories.yaml, if it has one) and records the new set in the
templates folder's lock.json. Nothing is written over: a set that exists
stays as it is. Then edit the new set's templates, bump each one you change,
and run npm run snapshots (theway-context build --update).

Options:
  --templates DIR    the templates folder (default: the bundled templates/)
  -h, --help         this help

${BUMP_OR_SET}`;

const OPTIONS = { templates: { type: "string" }, ...HELP_OPTION } as const;

export const newSetCommand = defineCommand(
	OPTIONS,
	NEW_SET_USAGE,
	async ({ values, positionals }, io) => {
		if (positionals.length > 0) {
			throw usageError(
				`new-set takes no argument (got ${JSON.stringify(positionals[0])})`,
				NEW_SET_USAGE,
			);
		}
		const templates = templatesOption(values.templates, io).templates ?? DEFAULT_TEMPLATES_DIR;
		const made = makeNextSet(templates);
		const shown = relative(io.cwd, made.dir) || made.dir;
		io.stdout(
			escapeControl(
				[
					`made ${made.version} from ${made.from}: ${shown} (${made.files.length} files)`,
					made.locked
						? `recorded ${made.version} in the lock`
						: `the lock does not hold ${made.from}: run theway-context build --update to record ${made.version}`,
					"",
					"Next:",
					`  1. edit the templates of ${made.version}, and raise the version of each one you change`,
					"  2. npm run snapshots (theway-context build --update), and read the snapshots' diffs",
					`  3. pin sessions to ${made.from} that must keep their prompt; the others get ${made.version}`,
					"",
					BUMP_OR_SET,
				].join("\n"),
			),
		);
		return 0;
	},
);

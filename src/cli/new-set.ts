/** `theway-context new-set`: the next template set, copied from the newest, for people. */
import { relative } from "node:path";
import { makeNextSet } from "../check/new-set.js";
import { DEFAULT_TEMPLATES_DIR } from "../templates/load.js";
import { escapeControl } from "../text/terminal.js";
import { defineCommand } from "./command.js";
import { BUMP_OR_SET, NEW_SET } from "./commands/new-set.js";

export const newSetCommand = defineCommand(NEW_SET, async ({ values }, io) => {
	const templates = values.templates ?? DEFAULT_TEMPLATES_DIR;
	const made = makeNextSet(templates);
	const shown = relative(io.cwd, made.dir) || made.dir;
	io.stdout(
		escapeControl(
			[
				`made ${made.version} from ${made.from}: ${shown} (${made.files.length} files)`,
				made.categories.shared
					? `${made.version}/categories.yaml is a copy of the shared ${relative(io.cwd, made.categories.from) || made.categories.from}, which ${made.from} and the older sets keep using: edit ${made.version}'s to change its tool categories alone`
					: `${made.version}/categories.yaml is a copy of ${made.from}'s own`,
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
});

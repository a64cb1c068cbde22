/** `build`, declared: its options and help (the body is ../build.ts, loaded when it runs). */

import { TEMPLATES } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const BUILD = declareCommand({
	name: "build",
	summary: "check the templates, fixtures and snapshots",
	synopsis: "[--update] [options]",
	args: { name: "", count: "none" },
	description: `Checks every template set (front-matter, section order, every path, helper
and partial against the view-models) and the versions against the lock,
writes the precompiled sets, then renders every fixture session against its
snapshot and every README example against the real rendering.`,
	options: {
		update: {
			type: "boolean",
			help: "rewrite the lock (once versions are bumped), the drifted snapshots and README examples, and print what changed",
		},
		...TEMPLATES,
		fixtures: {
			type: "path",
			value: "DIR",
			exists: "dir",
			default: "test/fixtures",
			help: "fixture sessions",
		},
		snapshots: { type: "path", value: "DIR", default: "snapshots", help: "their snapshots" },
		readme: {
			type: "path",
			value: "FILE",
			default: "README.md",
			help: "the README to check, if present",
		},
		watch: {
			type: "boolean",
			help: "check again once saves stop under the templates folder (a set made since included), categories.yaml, the fixtures and the snapshots, until Ctrl-C; a change that drifts several snapshots alike is printed once, with the fixtures it hits",
		},
	},
});

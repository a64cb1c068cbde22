/** `build`, declared: its options and help (the body is ../build.ts, loaded when it runs). */

import { TEMPLATES, TOOLS } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const BUILD = declareCommand({
	name: "build",
	summary: "check the templates, fixtures and snapshots",
	synopsis: "[--update] [options]",
	args: { name: "", count: "none" },
	description: `Checks every template set (front-matter, section order, every path, helper
and partial against the view-models) and the versions against the lock,
writes the precompiled sets, then renders every fixture session against its
snapshot and every README example against the real rendering.
With --corpus DIR, checks the sets over real sessions instead: every set
type-checked, every session of DIR (pi logs, Claude Code and Codex files)
rendered with its own set and measured against every budget, read
leniently; nothing written, no snapshot needed. A session that cannot be
read is left out with a warning; exit 1 only for a template's error (a set
that does not build, a session it fails to render) or a budget gone over,
each once with the sessions it hits.`,
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
			exists: "any",
			help: "the README to check (the default one only if present)",
		},
		corpus: {
			type: "path",
			value: "DIR",
			exists: "any",
			check: (values) =>
				values.update === true || values.watch === true
					? "--corpus checks real sessions and writes nothing: not with --update or --watch"
					: undefined,
			help: "check the sets over the sessions of DIR instead of the fixtures (pi logs, Claude Code and Codex files): types, render errors and budgets, no snapshots; a damaged session is a warning",
		},
		tools: {
			...TOOLS.tools,
			check: (values) =>
				values.corpus === undefined
					? "--tools names the tools of the --corpus sessions"
					: undefined,
		},
		watch: {
			type: "boolean",
			help: "check again once saves stop under the templates folder (a set made since included), categories.yaml, the fixtures and the snapshots, until Ctrl-C; a change that drifts several snapshots alike is printed once, with the fixtures it hits",
		},
	},
});

/** `import`, declared: its options and help (the body is ../import.ts, loaded when it runs). */
import { SOURCE_FORMATS } from "../../import/accounting.js";
import { CORPUS, STRICTNESS } from "../option-groups.js";
import { declareCommand } from "../options.js";

export const IMPORT = declareCommand({
	name: "import",
	summary: "Claude Code and Codex sessions as session logs",
	synopsis: "<file|DIR>... [options]",
	args: { name: "<file|DIR>", count: "some" },
	description: `Converts Claude Code transcripts (~/.claude/projects/<project>/<session>.jsonl)
and Codex rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl) into session
logs of this format (version 3), one log per source session, named after it.
A log already in this format is copied unchanged. DIR is searched for .jsonl
files; folders are imported on every core. A file that cannot be imported is
reported (file, line, reason) and the run goes on with the others.

render, inspect, diff, replay and preview also read a Claude Code or Codex file
directly, converting it in memory; import writes the conversion down.`,
	options: {
		from: {
			type: "choice",
			choices: ["auto", ...SOURCE_FORMATS],
			help: "the sources' format (auto: told from the records)",
		},
		out: {
			type: "string",
			value: "FILE|DIR",
			help: "where to write: one source file may go to FILE; several files or a folder need a DIR (required then), never inside a source's folder; an existing folder or a trailing / names a DIR",
			defaultHelp: "standard output",
		},
		...CORPUS,
		...STRICTNESS,
	},
	notes: `--strict refuses a source any of whose records could not be imported as they
are; --quiet prints neither the warnings nor the closing summary.

Exit codes: 0 every file imported, 1 a file failed, 2 wrong usage.`,
});

/**
 * `theway-context build --corpus DIR`: the build step's checks over real
 * sessions (src/check/corpus.ts), printed for people: the sets checked, a
 * warning per session read with repairs or left out, each error once with
 * the sessions it hits, a progress count on a terminal, and a closing line.
 */
import { resolve } from "node:path";
import { checkCorpus } from "../check/corpus.js";
import { escapeControl } from "../text/terminal.js";
import { sessionFiles } from "./corpus.js";
import type { Io } from "./io.js";
import { readToolsOption, toolsView } from "./tools-option.js";
import { printDiagnostic } from "./voice.js";

/** Checks the sessions under `corpus`; exit 1 only for a template's error or a budget gone over. */
export async function corpusCommand(
	options: { templates: string; corpus: string; tools: string | undefined },
	io: Io,
): Promise<number> {
	const files = sessionFiles(resolve(io.cwd, options.corpus));
	const load = toolsView(await readToolsOption(options.tools));
	const tty = io.stderrIsTTY === true;
	const start = performance.now();
	const result = checkCorpus(
		{
			templates: options.templates,
			files,
			load,
			...(tty
				? { progress: (done, total) => io.stderr(`\rbuild: ${done}/${total} sessions`) }
				: {}),
		},
		{
			info: (text) => io.stdout(`${escapeControl(text)}\n`),
			diagnostic: (d) => {
				if (tty) io.stderr("\r\u001b[K");
				printDiagnostic(io, d);
			},
		},
	);
	if (tty) io.stderr("\r\u001b[K");
	const { errors, built, checked, leftOut, repaired } = result;
	const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
	const ms = Math.round(performance.now() - start);
	if (!built) io.stdout(`${n(files.length, "session")}: none rendered, the sets do not build\n`);
	else
		io.stdout(
			`${n(files.length, "session")}: ${checked} rendered and measured${leftOut > 0 ? `, ${leftOut} left out (not readable)` : ""}${repaired > 0 ? `; ${repaired} read with repairs` : ""} (${ms} ms)\n`,
		);
	if (errors.length === 0) return 0;
	io.stderr(`build: failed, ${n(errors.length, "error")}\n`);
	return 1;
}

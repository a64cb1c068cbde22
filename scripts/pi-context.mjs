#!/usr/bin/env node
// Prints, for each session log named on the command line, the context pi
// itself builds from it: SessionManager.open, then buildSessionContext and
// convertToLlm, from the pinned reference that install-pi-reference.sh
// installs. pi rewrites a log it migrates, so it reads a copy in a
// temporary folder. Output: one JSON object per line, {file, messages, llm}
// or {file, error}.
//
// Usage: node scripts/pi-context.mjs <pi reference folder> <log>...
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [reference, ...files] = process.argv.slice(2);
const core = join(reference, "node_modules/@mariozechner/pi-coding-agent/dist/core");
const { SessionManager } = await import(pathToFileURL(join(core, "session-manager.js")).href);
const { convertToLlm } = await import(pathToFileURL(join(core, "messages.js")).href);

const dir = mkdtempSync(join(tmpdir(), "pi-reference-"));
try {
	files.forEach((file, i) => {
		const copy = join(dir, `${i}-${basename(file)}`);
		copyFileSync(file, copy);
		let out;
		try {
			const session = SessionManager.open(copy, dir);
			const { messages } = session.buildSessionContext();
			out = { file, leafId: session.getLeafId(), messages, llm: convertToLlm(messages) };
		} catch (error) {
			out = { file, error: String(error?.stack ?? error) };
		}
		process.stdout.write(`${JSON.stringify(out)}\n`);
	});
} finally {
	rmSync(dir, { recursive: true, force: true });
}

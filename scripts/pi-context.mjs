#!/usr/bin/env node
// Prints, for each session log named on the command line, the context pi
// itself builds from it: SessionManager.open, then buildSessionContext and
// convertToLlm, from the pinned reference that install-pi-reference.sh
// installs. pi rewrites a log it migrates, so it reads a copy in a
// temporary folder. Output: one JSON object per line, {file, leafId,
// messages, llm} or {file, error}.
//
// With --serve, the logs are named on standard input instead, one path a
// line, and each answer is written as soon as it is known: one process
// serves a whole run of generated logs.
//
// Usage: node scripts/pi-context.mjs <pi reference folder> <log>...
//        node scripts/pi-context.mjs <pi reference folder> --serve
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [reference, ...files] = process.argv.slice(2);
const core = join(reference, "node_modules/@mariozechner/pi-coding-agent/dist/core");
const { SessionManager } = await import(pathToFileURL(join(core, "session-manager.js")).href);
const { convertToLlm } = await import(pathToFileURL(join(core, "messages.js")).href);

const dir = mkdtempSync(join(tmpdir(), "pi-reference-"));
let count = 0;

/** pi's context for one log, read from a copy. */
function context(file) {
	const copy = join(dir, `${count++}-${basename(file)}`);
	try {
		copyFileSync(file, copy);
		const session = SessionManager.open(copy, dir);
		const { messages } = session.buildSessionContext();
		return { file, leafId: session.getLeafId(), messages, llm: convertToLlm(messages) };
	} catch (error) {
		return { file, error: String(error?.stack ?? error) };
	} finally {
		rmSync(copy, { force: true });
	}
}

try {
	if (files[0] === "--serve") {
		for await (const file of createInterface({ input: process.stdin })) {
			if (file !== "") process.stdout.write(`${JSON.stringify(context(file))}\n`);
		}
	} else {
		for (const file of files) process.stdout.write(`${JSON.stringify(context(file))}\n`);
	}
} finally {
	rmSync(dir, { recursive: true, force: true });
}

/**
 * The least a process that delivers a session's context does, for the
 * whole-process comparison with pi's loader: start Node, read the file,
 * JSON.parse every line and keep the objects (no modules of its own, no
 * tree, no output). With `--write`, it also writes the parsed lines back as
 * JSON on stdout, one line, as the CLI prints JSON to a pipe or a file: as
 * much text as the CLI prints or more.
 * Usage: node bench/parse-floor.js FILE [--write]
 */
import { readFileSync, writeSync } from "node:fs";

const entries = [];
for (const line of readFileSync(process.argv[2], "utf8").split("\n")) {
	if (line !== "") entries.push(JSON.parse(line));
}
if (process.argv.includes("--write")) writeSync(1, JSON.stringify(entries));
else process.stdout.write(`${entries.length}\n`);

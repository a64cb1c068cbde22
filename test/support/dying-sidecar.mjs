// A sidecar that dies once, for clients' tests:
// `node dying-sidecar.mjs MODE N MARKER COMMAND ARGS…` runs COMMAND (the real
// sidecar) and passes its lines through until its Nth reply. Then, unless
// MARKER exists, it makes MARKER, kills COMMAND and exits with 137: with MODE
// `eof` the reply is never written, with `partial` half of it is, without its
// newline. With MARKER there (a restarted sidecar), it only passes lines through.
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [mode, n, marker, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
let replies = 0;
let dying = false;
createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
	if (dying) return;
	replies++;
	if (replies === Number(n) && !existsSync(marker)) {
		dying = true;
		writeFileSync(marker, `${mode}\n`);
		child.kill("SIGKILL");
		const written = mode === "partial" ? line.slice(0, line.length >> 1) : "";
		process.stdout.write(written, () => process.exit(137));
		return;
	}
	process.stdout.write(`${line}\n`);
});
child.on("close", (code) => {
	if (!dying) process.exitCode = code ?? 1;
});

/**
 * pi's own loader, for comparison: where pi is installed (outside this
 * package's dependencies), and a tiny script that opens a session file with
 * pi's SessionManager and builds its context. Install it once with
 * `node bench/pi.js --install`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PI_VERSION = "0.73.1";
export const PI_PREFIX = join(homedir(), ".cache", "theway-context", `pi-${PI_VERSION}`);
/** pi's session manager module, imported alone (not pi's index, which loads its TUI). */
export const PI_SESSION_MANAGER = join(
	PI_PREFIX,
	"node_modules/@mariozechner/pi-coding-agent/dist/core/session-manager.js",
);
/** The script that loads one session with pi (`node bench/pi-loader.js FILE`). */
export const PI_LOADER = fileURLToPath(new URL("./pi-loader.js", import.meta.url));

export function piInstalled() {
	return existsSync(PI_SESSION_MANAGER);
}

/**
 * Real pi logs: $THEWAY_PI_LOG (one file), else the two largest of the
 * sample corpus beside the repository (`shared/corpora/pi-real/`), else the
 * shared fixture.
 */
export function realPiLogs() {
	if (process.env.THEWAY_PI_LOG)
		return existsSync(process.env.THEWAY_PI_LOG) ? [process.env.THEWAY_PI_LOG] : [];
	const corpus = fileURLToPath(new URL("../../shared/corpora/pi-real/", import.meta.url));
	if (existsSync(corpus)) {
		const logs = readdirSync(corpus)
			.filter((f) => f.endsWith(".jsonl"))
			.map((f) => join(corpus, f))
			.sort((a, b) => statSync(b).size - statSync(a).size);
		if (logs.length > 0) return logs.slice(0, 2);
	}
	const fixture = fileURLToPath(
		new URL("../../shared/fixtures/pi/before-compaction.jsonl", import.meta.url),
	);
	return existsSync(fixture) ? [fixture] : [];
}

/** One real pi log (the largest found), for the benches that take one. */
export function realPiLog() {
	return realPiLogs()[0];
}

if (process.argv[2] === "--install") {
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	const args = ["install", "--prefix", PI_PREFIX, `@mariozechner/pi-coding-agent@${PI_VERSION}`];
	process.stderr.write(`${npm} ${args.join(" ")}\n`);
	const result = spawnSync(npm, args, { stdio: "inherit" });
	process.exitCode = result.status ?? 1;
}

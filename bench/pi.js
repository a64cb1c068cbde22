/**
 * pi's own loader, for comparison: where pi is installed (outside this
 * package's dependencies), and a tiny script that opens a session file with
 * pi's SessionManager and builds its context. Install it once with
 * `node bench/pi.js --install`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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

/** A real pi log: $THEWAY_PI_LOG, or the shared fixture beside the repository. */
export function realPiLog() {
	const candidates = [
		process.env.THEWAY_PI_LOG,
		fileURLToPath(new URL("../../shared/fixtures/pi/before-compaction.jsonl", import.meta.url)),
	];
	return candidates.find((path) => path !== undefined && path !== "" && existsSync(path));
}

if (process.argv[2] === "--install") {
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	const args = ["install", "--prefix", PI_PREFIX, `@mariozechner/pi-coding-agent@${PI_VERSION}`];
	process.stderr.write(`${npm} ${args.join(" ")}\n`);
	const result = spawnSync(npm, args, { stdio: "inherit" });
	process.exitCode = result.status ?? 1;
}

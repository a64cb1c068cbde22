/**
 * Browser test support: Debian's Chromium driven by playwright-core (never a
 * downloaded browser), and the built CLI's `preview` run as a child process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";

export const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/bin.js");

/** The Chromium binary: `CHROMIUM_PATH`, or Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** A name the browser resolves to 127.0.0.1, as a DNS rebinding attack would. */
export const REBOUND_HOST = "rebind.test";

if (!HAVE_CHROMIUM && process.env.REQUIRE_BROWSER === "1") {
	throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM}`);
}
if (!HAVE_CHROMIUM) {
	console.warn(
		`\n${"!".repeat(78)}\n!! SKIPPING the browser tests: no Chromium at ${CHROMIUM}.\n!! Install it with \`sudo apt-get install -y chromium\` (Debian/Ubuntu; .ci/run does),\n!! or point CHROMIUM_PATH at a Chromium binary.\n${"!".repeat(78)}\n`,
	);
}

export function launch(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			`--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`,
		],
	});
}

export interface Preview {
	url: string;
	port: number;
	child: ChildProcess;
	stop(): Promise<void>;
}

/** Runs `theway-context preview ARGS --port 0` and waits for the URL it prints. */
export function startPreviewCli(args: readonly string[], cwd: string): Promise<Preview> {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
	const child = spawn(process.execPath, [CLI, "preview", ...args, "--port", "0"], {
		cwd,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	return new Promise((resolve, reject) => {
		child.on("exit", (code) => reject(new Error(`preview exited with ${code}: ${stderr}`)));
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const url = stdout.match(/^(http:\/\/127\.0\.0\.1:(\d+)\/)\n/);
			if (url === null) return;
			resolve({
				url: url[1] as string,
				port: Number(url[2]),
				child,
				stop: () =>
					new Promise((done) => {
						child.removeAllListeners("exit");
						child.on("exit", () => done());
						child.kill("SIGTERM");
					}),
			});
		});
	});
}

/** min, median and max of `ms`, for printing. */
export function spread(ms: readonly number[]): string {
	const sorted = [...ms].sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
	const f = (n: number | undefined) => `${(n ?? 0).toFixed(0)} ms`;
	return `min ${f(sorted[0])}, median ${f(at(0.5))}, max ${f(sorted.at(-1))} (${ms.length} saves)`;
}

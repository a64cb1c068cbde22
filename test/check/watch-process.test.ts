/**
 * `build --watch` as a process: after its first run it keeps watching (the
 * watches alone hold the process) until Ctrl-C, which ends it with 0. Runs
 * the built CLI (dist/), in a throwaway copy of the project.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectCopy, ROOT } from "../support/project.js";

describe("build --watch, as a process", () => {
	it("stays until interrupted, after its first run", async () => {
		const dir = projectCopy();
		const child = spawn(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), "build", "--watch"], {
			cwd: dir,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let out = "";
		child.stdout.on("data", (d) => {
			out += d;
		});
		const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
		const deadline = Date.now() + 30_000;
		while (!/\] ok|error/.test(out) && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 50));
		expect(out).toMatch(/\] ok/);
		// Still there a while after its first run: nothing but the watches keeps it.
		const early = await Promise.race([
			exited,
			new Promise((r) => setTimeout(() => r("running"), 1500)),
		]);
		expect(early).toBe("running");
		child.kill("SIGINT");
		expect(await exited).toBe(0);
	}, 60_000);
});

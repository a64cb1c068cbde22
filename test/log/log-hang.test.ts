/**
 * Hang guards: a log whose parents form a cycle is loaded (strict) in a
 * separate node process with a small heap and a time limit, so a reader that
 * looped forever would fail these tests instead of hanging the run. What each
 * cycle gives, in the default mode and strict, is in `test/spec/bad-entries.yaml`.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistant, HEADER, user, writeLog } from "../support/session.js";

const ROOT = join(import.meta.dirname, "..", "..");

interface ChildResult {
	loaded: boolean;
	isContextError?: boolean;
	code?: string;
	file?: string;
	line?: number;
	message?: string;
	leafId?: string | null;
}

/**
 * Loads `path` in a separate node process with a small heap and a time limit,
 * so a reader that loops forever fails this test instead of hanging or
 * crashing the test run. The sources are loaded through vite's module runner.
 */
function loadInChild(path: string): { result: ChildResult | undefined; detail: string } {
	const script = `
import { runnerImport } from "vite";
const { module } = await runnerImport(${JSON.stringify(join(ROOT, "src/index.ts"))}, {
	root: ${JSON.stringify(ROOT)},
	configFile: false,
	logLevel: "silent",
});
let out;
try {
	const bundle = new module.ContextService({ strict: true }).loadSync(process.env.SESSION_LOG);
	out = { loaded: true, leafId: bundle.meta.leafId };
} catch (e) {
	out = {
		loaded: false,
		isContextError: e instanceof module.ContextError,
		code: e?.code,
		file: e?.file,
		line: e?.line,
		message: String(e?.message),
	};
}
process.stdout.write("RESULT " + JSON.stringify(out) + "\\n");
`;
	const child = spawnSync(
		process.execPath,
		["--max-old-space-size=256", "--input-type=module", "-e", script],
		{
			cwd: ROOT,
			env: { ...process.env, SESSION_LOG: path },
			encoding: "utf8",
			timeout: 15_000,
		},
	);
	const line = child.stdout?.split("\n").find((l) => l.startsWith("RESULT "));
	const detail = `status ${child.status}, signal ${child.signal}, stderr: ${(child.stderr ?? "").slice(0, 500)}`;
	return {
		result: line === undefined ? undefined : (JSON.parse(line.slice(7)) as ChildResult),
		detail,
	};
}

describe("a cycle in parentId, strict, in a child process", () => {
	it("fails with parent_cycle naming the entries of a 2-cycle made by a forward reference", () => {
		const path = writeLog([
			HEADER,
			user("root", null, "start"),
			user("loop-a", "loop-b", "a"),
			assistant("loop-b", "loop-a", "b"),
		]);
		const { result, detail } = loadInChild(path);
		expect(result, detail).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
		});
		expect([3, 4]).toContain(result?.line);
		expect(result?.message).toContain("loop-a");
		expect(result?.message).toContain("loop-b");
	}, 30_000);

	it("fails with parent_cycle on a self-loop that is the only entry", () => {
		const path = writeLog([HEADER, user("self", "self", "me")]);
		const { result, detail } = loadInChild(path);
		expect(result, detail).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
			line: 2,
		});
		expect(result?.message).toContain("self");
	}, 30_000);

	it("fails with parent_cycle on a self-loop after a root entry (never a hang)", () => {
		const path = writeLog([HEADER, user("root", null, "start"), user("self", "self", "me")]);
		const { result, detail } = loadInChild(path);
		expect(result, `the load did not finish: ${detail}`).toBeDefined();
		expect(result, JSON.stringify(result)).toMatchObject({
			loaded: false,
			isContextError: true,
			code: "parent_cycle",
			file: path,
			line: 3,
		});
		expect(result?.message).toContain("self");
	}, 30_000);
});

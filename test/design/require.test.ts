/**
 * CommonJS `require` of the package, through Node's `require(esm)`: the
 * exports `import` gives, on every Node version `engines` allows; refused
 * with ERR_REQUIRE_ESM where `require(esm)` is off, as before Node 20.19.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/project.js";

const ENTRY = join(ROOT, "dist/index.js");
const SCRIPT = `const cjs = require(${JSON.stringify(ENTRY)});
import(${JSON.stringify(ENTRY)}).then((esm) => {
	const keys = Object.keys(esm).sort();
	const same = keys.join() === Object.keys(cjs).sort().join() && keys.every((k) => esm[k] === cjs[k]);
	process.stdout.write(JSON.stringify({ same, keys }));
});`;

const run = (...flags: string[]) =>
	spawnSync(process.execPath, [...flags, "-e", SCRIPT], { encoding: "utf8", timeout: 60_000 });

/** Whether `version` (x.y.z) is one `engines.node` (`^20.19.0 || >=22.12.0`) allows. */
function allowed(version: string): boolean {
	const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
	return (major === 20 && minor >= 19) || major > 22 || (major === 22 && minor >= 12);
}

describe.skipIf(!existsSync(ENTRY))("require of the package", () => {
	it("engines names the versions whose require(esm) is on by default", () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
		expect(pkg.engines.node).toBe("^20.19.0 || >=22.12.0");
		expect(allowed("20.18.3")).toBe(false);
		expect(allowed("22.11.0")).toBe(false);
		expect(allowed("21.7.0")).toBe(false);
	});

	it.skipIf(!allowed(process.version))("gives what import gives, with no flag", () => {
		const result = run();
		expect(result.stderr).toBe("");
		const out = JSON.parse(result.stdout);
		expect(out.same).toBe(true);
		expect(out.keys).toContain("loadContext");
	});

	it("is refused with ERR_REQUIRE_ESM where require(esm) is off", () => {
		const result = run("--no-experimental-require-module");
		expect(result.status).not.toBe(0);
		expect(result.stderr).toContain("ERR_REQUIRE_ESM");
	});
});

/**
 * The published types compile in a consumer that has no `@types/node`
 * (`types: []`; the DOM library, which zod's own types need for
 * `URL`, has no `Buffer`) and checks libraries (`skipLibCheck: false`): the package's
 * `.d.ts` files, as `npm pack` ships them, with its dependencies beside them.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/project.js";
import { tempDir } from "../support/temp.js";

describe.skipIf(!existsSync(join(ROOT, "dist/index.d.ts")))("the published types", () => {
	it("need no @types/node", () => {
		const dir = tempDir("theway-consumer-");
		const pkg = join(dir, "node_modules/theway-context");
		mkdirSync(pkg, { recursive: true });
		cpSync(join(ROOT, "package.json"), join(pkg, "package.json"));
		cpSync(join(ROOT, "dist"), join(pkg, "dist"), {
			recursive: true,
			filter: (src) => !src.includes(`${join("dist", "cli")}`) || src.endsWith(".d.ts"),
		});
		for (const dep of ["zod", "handlebars"]) {
			symlinkSync(join(ROOT, "node_modules", dep), join(dir, "node_modules", dep), "dir");
		}
		writeFileSync(
			join(dir, "package.json"),
			JSON.stringify({ name: "consumer", type: "module", private: true }),
		);
		writeFileSync(
			join(dir, "tsconfig.json"),
			JSON.stringify({
				compilerOptions: {
					strict: true,
					module: "nodenext",
					moduleResolution: "nodenext",
					target: "es2022",
					lib: ["es2022", "dom"],
					types: [],
					skipLibCheck: false,
					noEmit: true,
				},
				files: ["consumer.ts"],
			}),
		);
		writeFileSync(
			join(dir, "consumer.ts"),
			[
				'import { ContextService, ContextError, loadContext } from "theway-context";',
				'import type { ContextBundle } from "theway-context";',
				"const service = new ContextService();",
				"export async function render(path: string): Promise<ContextBundle> {",
				"\ttry {",
				"\t\treturn await service.load(path);",
				"\t} catch (error) {",
				"\t\tif (error instanceof ContextError) throw new Error(error.code + ': ' + error.message);",
				"\t\tthrow error;",
				"\t}",
				"}",
				"export const once = loadContext;",
				"",
			].join("\n"),
		);
		const tsc = spawnSync(
			process.execPath,
			[join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
			{ cwd: dir, encoding: "utf8", timeout: 120_000 },
		);
		expect(tsc.stdout + tsc.stderr).toBe("");
		expect(tsc.status).toBe(0);
	}, 120_000);
});

/**
 * The published types compile in a strict consumer that has no `@types/node`
 * (`types: []`) and checks libraries (`skipLibCheck: false`): the package's
 * `.d.ts` files, as `npm pack` ships them, with its dependencies beside them.
 * Without the DOM library, zod's own types lack `URL` and nothing else does:
 * so a consumer on `lib: ["es2023"]` alone needs `skipLibCheck`, the DOM
 * library or `@types/node`, as docs/library.md says.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/project.js";
import { tempDir } from "../support/temp.js";

/** A strict consumer of the library: loads, converts, and may not change what it is given. */
const CONSUMER = [
	'import { ContextService, ContextError, convertToLlm, loadContext } from "theway-context";',
	'import type { ContextBundle, LlmMessage } from "theway-context";',
	"const service = new ContextService();",
	"export async function render(path: string): Promise<ContextBundle> {",
	"\ttry {",
	"\t\treturn await service.load(path);",
	"\t} catch (error) {",
	"\t\tif (error instanceof ContextError) throw new Error(error.code + ': ' + error.message);",
	"\t\tthrow error;",
	"\t}",
	"}",
	"export async function cached(path: string): Promise<LlmMessage[]> {",
	"\tconst bundle = await loadContext(path);",
	"\t// @ts-expect-error the bundle's messages are readonly",
	"\tbundle.messages.push(bundle.messages[0]);",
	"\t// A field for one provider goes on a copy: a converted message may be shared.",
	"\treturn convertToLlm(bundle).map((m) => ({ ...m, cache_control: { type: 'ephemeral' } }));",
	"}",
	"",
].join("\n");

/** A consumer folder with the package installed as packed; tsc's output for `compilerOptions`. */
function compile(compilerOptions: Record<string, unknown>): {
	output: string;
	status: number | null;
} {
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
	const strict = {
		strict: true,
		exactOptionalPropertyTypes: true,
		noUncheckedIndexedAccess: true,
		verbatimModuleSyntax: true,
		module: "nodenext",
		moduleResolution: "nodenext",
		target: "es2022",
		types: [],
		skipLibCheck: false,
		noEmit: true,
	};
	writeFileSync(
		join(dir, "tsconfig.json"),
		JSON.stringify({ compilerOptions: { ...strict, ...compilerOptions }, files: ["consumer.ts"] }),
	);
	writeFileSync(join(dir, "consumer.ts"), CONSUMER);
	const tsc = spawnSync(
		process.execPath,
		[join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
		{ cwd: dir, encoding: "utf8", timeout: 120_000 },
	);
	return { output: tsc.stdout + tsc.stderr, status: tsc.status };
}

describe.skipIf(!existsSync(join(ROOT, "dist/index.d.ts")))("the published types", () => {
	it("need no @types/node: es2023 with the DOM library", () => {
		expect(compile({ lib: ["es2023", "dom"] })).toEqual({ output: "", status: 0 });
	}, 120_000);

	// skipLibCheck skips every .d.ts, zod's included: that this is all it skips is shown here.
	it("on es2023 alone, lack only URL, in zod's own types", () => {
		const bare = compile({ lib: ["es2023"] });
		const errors = bare.output.split("\n").filter((l) => l.includes("error TS"));
		expect(errors.length).toBeGreaterThan(0);
		for (const e of errors)
			expect(e).toMatch(/node_modules\/zod\/.*error TS2304: Cannot find name 'URL'/);
	}, 120_000);
});

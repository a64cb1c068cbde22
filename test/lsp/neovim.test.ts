/**
 * The Neovim 0.7–0.9 set-up of docs/editor.md, run as written in a headless
 * Neovim against the built server (its command pointed at dist/): a typo in a
 * template comes back as a diagnostic on its line. Skipped when no `nvim` is
 * installed or the CLI is not built.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.js";
import { NEWEST, ROOT } from "../support/template-sets.js";

const BIN = join(ROOT, "dist/cli/bin.cjs");
const hasNvim = spawnSync("nvim", ["--version"], { encoding: "utf8" }).status === 0;

/** The first Lua block after the heading `heading` of docs/editor.md. */
function luaAfter(heading: string): string {
	const doc = readFileSync(join(ROOT, "docs/editor.md"), "utf8");
	const at = doc.indexOf(`\n${heading}\n`);
	if (at < 0) throw new Error(`docs/editor.md has no "${heading}"`);
	const block = /```lua\n([\s\S]*?)```/.exec(doc.slice(at));
	if (block === null) throw new Error(`no Lua block after "${heading}"`);
	return block[1] as string;
}

describe.skipIf(!hasNvim || !existsSync(BIN))(
	"Neovim 0.7 to 0.9, as docs/editor.md sets it up",
	() => {
		it("attaches the server to a template and shows its type error", () => {
			const documented = luaAfter("### Neovim 0.7 to 0.9");
			const command = '{ "npx", "theway-context", "lsp", "--stdio" }';
			expect(documented).toContain(command);
			const dir = tempDir("theway-nvim-");
			cpSync(join(ROOT, "templates"), join(dir, "templates"), {
				recursive: true,
				filter: (src) => !src.includes(".compiled"),
			});
			cpSync(join(ROOT, "categories.yaml"), join(dir, "categories.yaml"));
			const init = join(dir, "init.lua");
			writeFileSync(
				init,
				documented.replace(
					command,
					`{ ${[process.execPath, BIN, "lsp", "--stdio"].map((s) => JSON.stringify(s)).join(", ")} }`,
				),
			);
			const file = join(dir, "templates", NEWEST, "environment.hbs");
			writeFileSync(
				file,
				readFileSync(file, "utf8").replace("{{environment.cwd}}", "{{environment.cdw}}"),
			);
			const check = join(dir, "check.lua");
			writeFileSync(
				check,
				[
					"vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 100)",
					"for _, d in ipairs(vim.diagnostic.get(0)) do io.stdout:write((d.lnum + 1) .. ': ' .. d.message .. '\\n') end",
					"vim.cmd('qa!')",
				].join("\n"),
			);
			const run = spawnSync("nvim", ["--headless", "-u", init, file, "-c", `luafile ${check}`], {
				cwd: dir,
				encoding: "utf8",
				timeout: 30_000,
			});
			const line =
				readFileSync(file, "utf8")
					.split("\n")
					.findIndex((l) => l.includes("cdw")) + 1;
			expect(`${run.stdout}${run.stderr}`).toMatch(
				new RegExp(`^${line}: "environment\\.cdw" does not exist`, "m"),
			);
		}, 40_000);
	},
);

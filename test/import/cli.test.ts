/**
 * `theway-context import` through `main(argv, io)`: standard output for one
 * file, a folder into --out, never into a source's folder, a broken file
 * reported while the others are imported, and the summary counts.
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/temp.js";
import { FIXTURES } from "./support.js";

/** A folder of sources: two good sessions (one in a sub-folder) and a broken file. */
function sourceFolder(): string {
	const dir = tempDir("theway-import-src-");
	mkdirSync(join(dir, "nested"));
	copyFileSync(join(FIXTURES, "cc-tree.jsonl"), join(dir, "cc-tree.jsonl"));
	copyFileSync(join(FIXTURES, "codex-rollback.jsonl"), join(dir, "nested/codex-rollback.jsonl"));
	writeFileSync(join(dir, "broken.jsonl"), Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x01, 0x02]));
	return dir;
}

describe("import command", () => {
	it("writes one file's log to standard output, warnings to stderr", async () => {
		const result = await runCli(["import", join(FIXTURES, "cc-unknown-record.jsonl")]);
		expect(result.code, result.stderr).toBe(0);
		expect(JSON.parse(result.stdout.split("\n")[0] as string)).toMatchObject({
			type: "session",
			version: 3,
		});
		expect(result.stderr).toMatch(
			/cc-unknown-record\.jsonl:2: warning: skipped: unknown record type "brand-new-record"/,
		);
	});

	it("imports a folder into --out, goes on past a broken file and sums up", async () => {
		const src = sourceFolder();
		const out = join(tempDir("theway-import-out-"), "logs");
		const result = await runCli(["import", src, "--out", out, "--jobs", "1"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/broken\.jsonl:1: error: no session records/);
		expect(existsSync(join(out, "cc-tree.jsonl"))).toBe(true);
		expect(existsSync(join(out, "nested/codex-rollback.jsonl"))).toBe(true);
		expect(existsSync(join(out, "broken.jsonl"))).toBe(false);
		expect(result.stderr).toMatch(
			/import: 2 of 3 session\(s\) imported \(claude-code 1, codex 1\), 1 failed; records: \d+ mapped/,
		);
		const rendered = await runCli([
			"render",
			"--strict",
			"--format",
			"json",
			join(out, "cc-tree.jsonl"),
		]);
		expect(rendered.code, rendered.stderr).toBe(0);
	});

	it("refuses an --out inside a source's folder, and several files without --out", async () => {
		const src = sourceFolder();
		const file = join(src, "cc-tree.jsonl");
		const oneTo = (out: string) => runCli(["import", file, "--out", out]);
		const inside = await runCli(["import", src, "--out", join(src, "converted")]);
		expect(inside.code).toBe(2);
		expect(inside.stderr).toMatch(/inside the folder of the source/);
		const next = await oneTo(join(src, "x.jsonl"));
		expect(next.code).toBe(2);
		// A folder below a source file's own is not where it reads.
		const below = await oneTo(join(src, "converted", "x.jsonl"));
		expect(below.code, below.stderr).toBe(0);
		const several = await runCli(["import", src]);
		expect(several.code).toBe(2);
		expect(several.stderr).toMatch(/several sessions need --out DIR/);
		// Through a symbolic link: to the source's folder, or a log's name that links to a source.
		const source = readFileSync(file);
		const links = tempDir("theway-import-links-");
		symlinkSync(src, join(links, "alias"));
		const viaFolder = await runCli(["import", src, "--out", join(links, "alias")]);
		expect(viaFolder.code).toBe(2);
		expect(viaFolder.stderr).toMatch(/would write over the source /);
		symlinkSync(file, join(links, "link.jsonl"));
		const viaFile = await oneTo(join(links, "link.jsonl"));
		expect(viaFile.code).toBe(2);
		expect(viaFile.stderr).toMatch(/would write over the source/);
		expect(readFileSync(file)).toEqual(source);
	});

	it("with --strict, refuses a source some of whose records could not be imported", async () => {
		const out = tempDir("theway-import-out-");
		const result = await runCli([
			"import",
			"--strict",
			join(FIXTURES, "cc-unknown-record.jsonl"),
			join(FIXTURES, "cc-tree.jsonl"),
			"--out",
			out,
		]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/cc-unknown-record\.jsonl:2: error: refused \(--strict\)/);
		expect(readFileSync(join(out, "cc-tree.jsonl"), "utf8")).toContain('"import_source"');
	});

	it("takes a trailing slash on --out as a folder for one file, and says where the logs went", async () => {
		const out = join(tempDir("theway-import-out-"), "new-folder");
		const source = join(FIXTURES, "cc-tree.jsonl");
		const result = await runCli(["import", source, "--out", `${out}/`]);
		expect(result.code, result.stderr).toBe(0);
		expect(readFileSync(join(out, "cc-tree.jsonl"), "utf8")).toContain('"import_source"');
		expect(result.stderr).toContain(`written to ${out}/`);
		const file = join(out, "named.jsonl");
		const named = await runCli(["import", source, "--out", file]);
		expect(named.stderr).toContain(`written to ${file}\n`);
		expect(existsSync(file)).toBe(true);
	});

	it("says what is wrong with an --out file where a folder is needed, and with a folder of no session", async () => {
		const file = join(tempDir("theway-import-out-"), "existing.jsonl");
		writeFileSync(file, "");
		const several = await runCli(["import", sourceFolder(), "--out", file]);
		expect(several.code).toBe(2);
		expect(several.stderr).toMatch(
			/--out .*existing\.jsonl is a file: several sessions need a folder/,
		);
		const empty = tempDir("theway-import-empty-");
		writeFileSync(join(empty, "notes.txt"), "not a session");
		const none = await runCli(["import", empty, "--out", join(tempDir("theway-import-out-"), "o")]);
		expect(none.code).toBe(1);
		expect(none.stderr).toMatch(/no \.jsonl session in this folder/);
	});

	it("refuses a file whose records are not in the format --from names", async () => {
		const source = join(FIXTURES, "cc-tree.jsonl");
		const asCodex = await runCli(["import", source, "--from", "codex"]);
		expect(asCodex.code).toBe(1);
		expect(asCodex.stderr).toMatch(
			/cc-tree\.jsonl:1: error: given as a Codex rollout, but its records are those of a Claude Code transcript/,
		);
		const asOurs = await runCli(["import", source, "--from", "theway"]);
		expect(asOurs.code).toBe(1);
		expect(asOurs.stderr).toMatch(
			/cc-tree\.jsonl:1: error: given as a theway log, but its first JSON line/,
		);
		expect((await runCli(["import", source, "--from", "claude-code"])).code).toBe(0);
	});

	it("copies a log of ours unchanged", async () => {
		const own = join(import.meta.dirname, "../fixtures/examples/1-normal.jsonl");
		const result = await runCli(["import", own]);
		expect(result.stdout).toBe(readFileSync(own, "utf8"));
	});
});

describe("import of a log already in our format", () => {
	it("passes it as it is, warning what a read skips, and refuses it under --strict", async () => {
		const dir = tempDir("theway-import-own-");
		const log = join(dir, "own.jsonl");
		const header = { type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" };
		const entry = {
			type: "message",
			id: "u1",
			parentId: null,
			timestamp: "t",
			message: { role: "user", content: "hi", timestamp: 1 },
		};
		writeFileSync(log, `${JSON.stringify(header)}\ngarbage\n${JSON.stringify(entry)}\n`);
		const out = join(tempDir("theway-import-out-"), "own.jsonl");
		const lenient = await runCli(["import", log, "--out", out]);
		expect(lenient.code, lenient.stderr).toBe(0);
		expect(lenient.stderr).toMatch(/own\.jsonl:2/);
		expect(readFileSync(out, "utf8")).toBe(readFileSync(log, "utf8"));
		const strict = await runCli(["import", log, "--out", join(dir, "..", "x.jsonl"), "--strict"]);
		expect(strict.code).toBe(1);
		expect(strict.stderr).toMatch(/own\.jsonl:2/);
	});
});

/**
 * `replay --vs B`: the change said with its direction ("with B instead of
 * A: +N tokens, +$X", B the side --vs names), both sides named in the JSON;
 * B a set, a folder or a git revision (HEAD), a revision's set that cannot
 * be built located at REV:PATH; and `--summary`, the corpus summary alone.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { gitRepo, projectCopy, rewrite } from "../support/project.js";
import {
	addLine,
	bumped,
	NEWEST,
	ROOT,
	twoSets,
	versionOf,
	withVersion,
} from "../support/template-sets.js";

const FIXTURES = join(ROOT, "test/fixtures/sessions");
const SESSION = join(FIXTURES, "virtualized.jsonl");
const ADDED = "Answer in full sentences, and say which files you read.";

const withLine = (t: string) => withVersion(addLine(t, ADDED), bumped(versionOf(t)));

/** v1 the newest bundled set, v2 the same with a line added to its harness. */
const templates = twoSets({ "harness.hbs": (t) => addLine(t, ADDED) });

const replay = (...argv: string[]) =>
	runCli(["replay", ...argv, "--quiet", "--tokenizer", "o200k"]);

interface Report {
	sessions: { set: string; vs: { set: string; change: { contextTokens: number } } }[];
	summary: {
		vs: {
			set: string;
			insteadOf: string[];
			change: { contextTokens: number; cost: number | null };
		};
	};
}

const signed = (n: number) => `${n > 0 ? "+" : "−"}${Math.abs(n).toLocaleString("en-US")}`;

describe("replay --vs, said with its direction", () => {
	it("with B instead of A: the change is B's figures minus A's, signed so, both sides named", async () => {
		for (const [a, b] of [
			["v2", "v1"],
			["v1", "v2"],
		] as const) {
			const args = [SESSION, "--templates", templates, "--template-version", a, "--vs", b];
			const json = JSON.parse((await replay(...args, "--format", "json")).stdout) as Report;
			const change = json.summary.vs.change.contextTokens;
			expect(Math.sign(change)).toBe(b === "v2" ? 1 : -1);
			expect(json.summary.vs).toMatchObject({ set: b, insteadOf: [a] });
			expect(json.sessions[0]).toMatchObject({ set: a, vs: { set: b } });
			const text = (await replay(...args)).stdout;
			const said = `with ${b} instead of ${a}: ${signed(change)} o200k tokens (cached `;
			expect(text).toContain(`\n  ${said}`);
			expect(text).toContain(`\n${said}`);
			expect(text).not.toMatch(/^\s*(vs|change):/m);
			// A cost change of a few tokens is said in figures that are not nil.
			const cost = json.summary.vs.change.cost as number;
			expect(Math.abs(cost)).toBeGreaterThan(0);
			const line = text.split("\n").find((l) => l.startsWith(said)) ?? "";
			const dollars = /, ([+−])\$([\d.]+)$/.exec(line);
			expect(dollars?.[1]).toBe(cost > 0 ? "+" : "−");
			expect(Number(dollars?.[2])).toBeCloseTo(
				Math.abs(cost),
				-Math.floor(Math.log10(Math.abs(cost))),
			);
		}
	});

	it("--vs HEAD: the templates as the last commit has them, named HEAD", async () => {
		const dir = projectCopy();
		const git = gitRepo(dir);
		rewrite(join(dir, "templates", NEWEST, "harness.hbs"), withLine);
		const args = [SESSION, "--templates", "templates", "--vs", "HEAD"];
		const run = await runCli(["replay", ...args, "--quiet", "--tokenizer", "o200k"], dir);
		expect(run.code, run.stderr).toBe(0);
		// HEAD has not the line the working tree adds: fewer tokens with it.
		expect(run.stdout).toMatch(
			new RegExp(`\\nwith HEAD instead of ${NEWEST}: −[\\d,]+ o200k tokens`),
		);
		const json = await runCli(["replay", ...args, "--quiet", "--format", "json"], dir);
		expect((JSON.parse(json.stdout) as Report).summary.vs).toMatchObject({
			set: "HEAD",
			insteadOf: [NEWEST],
		});
		// A set HEAD holds that this version cannot build: located at HEAD:PATH.
		const tools = join(dir, "templates", NEWEST, "tools.hbs");
		const good = readFileSync(tools, "utf8");
		writeFileSync(tools, good.replace(/^---\n/, "---\nlater: true\n"));
		git("commit", "-q", "-am", "a key of a later version");
		writeFileSync(tools, good);
		const broken = await runCli(["replay", ...args, "--quiet"], dir);
		expect(broken.code).toBe(1);
		expect(broken.stderr).toContain(`HEAD:templates/${NEWEST}/tools.hbs:2:1: `);
		expect(broken.stderr).not.toContain("theway-revision-");
	});
});

describe("replay --summary", () => {
	it("prints the corpus summary alone: the text's last part, the JSON's summary", async () => {
		const args = [FIXTURES, "--templates", templates, "--vs", "v2"];
		const full = await replay(...args);
		const short = await replay(...args, "--summary");
		expect(short.code, short.stderr).toBe(0);
		expect(full.stdout).toContain("═══ ");
		expect(short.stdout).not.toContain("═══ ");
		expect(full.stdout.endsWith(`\n\n${short.stdout}`)).toBe(true);
		expect(short.stdout.split("\n").length).toBeLessThan(full.stdout.split("\n").length);
		const json = JSON.parse((await replay(...args, "--summary", "--format", "json")).stdout);
		const all = JSON.parse((await replay(...args, "--format", "json")).stdout);
		expect(json).toEqual({ summary: all.summary });
	});
});

/**
 * The bill beside the what-if, one fixture per shape: a sidechain's calls
 * billed (one response over two records counted once), a rewound branch's
 * billed, a sub-agent's file folded into its session (and counted once in
 * the summary when both are given), a resumed Codex rollout's copy of the
 * older session left out, a `<synthetic>` message and a `delivery-mirror`
 * one neither calls nor billed, a file whose first lines are comments read
 * with a warning (and refused under --strict). Each fixture's bill and
 * recorded usage is a snapshot (snapshots/replay-bill/); the fixtures'
 * renderings are the build step's (snapshots/import/bill/, snapshots/bill/).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Billed } from "../../src/replay/bill.js";
import { runCli, runJson } from "../support/cli.js";
import { tempDir } from "../support/temp.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");
const SNAPSHOTS = join(import.meta.dirname, "../../snapshots/replay-bill");

interface Report {
	sessions: {
		file: string;
		calls: { model: string; entryId: string; recorded: unknown }[];
		total: { calls: number; cost: number | null };
		billed: Billed;
		subagents?: string[];
	}[];
	summary: { billed: Billed; unpriced: string[] };
}

async function replay(...args: string[]): Promise<{ report: Report; stderr: string }> {
	const result = await runJson<Report>(["replay", ...args], FIXTURES);
	expect(result.code, result.stderr).toBe(0);
	return { report: result.json, stderr: result.stderr };
}

/** What the bill and the calls' recorded usage are (not the what-if's counts, which follow the templates). */
function snapshot(report: Report): string {
	const sessions = report.sessions.map((s) => ({
		file: s.file,
		calls: s.calls.map((c) => ({ entryId: c.entryId, model: c.model, recorded: c.recorded })),
		billed: s.billed,
		...(s.subagents === undefined ? {} : { subagents: s.subagents }),
	}));
	const { billed, unpriced } = report.summary;
	return `${JSON.stringify({ sessions, summary: { billed, unpriced } }, null, 2)}\n`;
}

const tokens = (b: Billed) => [b.calls, b.input, b.cacheRead, b.cacheWrite, b.output];

describe("the bill", () => {
	it("counts a sidechain's calls, one response over two records once", async () => {
		const { report } = await replay("import/bill/cc-sidechain-billed.jsonl");
		const [session] = report.sessions;
		// The what-if walks the main line (2 calls); the bill adds the sidechain's response.
		expect(session?.total.calls).toBe(2);
		// m1 (10, 0, 1000, 20) + sm1's last record (5, 0, 2000, 40) + m2 (3, 1000, 50, 12).
		expect(tokens(session?.billed as Billed)).toEqual([3, 18, 1000, 3050, 72]);
		expect(session?.billed.cost).toBeGreaterThan(0);
		await expect(snapshot(report)).toMatchFileSnapshot(join(SNAPSHOTS, "cc-sidechain-billed.json"));
	});

	it("counts a rewound branch's calls, and not a message written in a model's place", async () => {
		const { report, stderr } = await replay("bill/pi-rewound.jsonl");
		const [session] = report.sessions;
		expect(session?.calls.map((c) => c.entryId)).toEqual(["a1", "a3"]);
		expect(tokens(session?.billed as Billed)).toEqual([3, 21, 4000, 2220, 210]);
		expect(session?.total.cost).not.toBeNull();
		expect(stderr).not.toMatch(/delivery-mirror/);
		await expect(snapshot(report)).toMatchFileSnapshot(join(SNAPSHOTS, "pi-rewound.json"));
	});

	it("leaves a <synthetic> API error out of the calls, the bill and the unpriced", async () => {
		const { report, stderr } = await replay("import/bill/cc-synthetic.jsonl");
		const [session] = report.sessions;
		expect(session?.calls.map((c) => c.model)).toEqual(["claude-sonnet-4-5-20250929"]);
		expect(tokens(session?.billed as Billed)).toEqual([1, 8, 0, 500, 16]);
		expect(session?.total.cost).not.toBeNull();
		expect(report.summary.unpriced).toEqual([]);
		expect(stderr).toBe("");
		await expect(snapshot(report)).toMatchFileSnapshot(join(SNAPSHOTS, "cc-synthetic.json"));
		// A table whose glob prices any model does not make it a call.
		const prices = join(tempDir(), "prices.yaml");
		writeFileSync(prices, 'models:\n  - match: "*"\n    input: 1\n    output: 2\n');
		const priced = (await replay("import/bill/cc-synthetic.jsonl", "--prices", prices)).report;
		expect(priced.sessions[0]?.calls.map((c) => c.model)).toEqual(["claude-sonnet-4-5-20250929"]);
	});

	it("reads an excerpt whose first lines are comments, each skipped with a located warning", async () => {
		const file = join(tempDir(), "excerpt.jsonl");
		const source = readFileSync(join(FIXTURES, "import/bill/cc-synthetic.jsonl"), "utf8");
		writeFileSync(file, `// an excerpt of a session\n// and not JSON\n${source}`);
		const { report, stderr } = await replay(file);
		expect(stderr).toMatch(/excerpt\.jsonl:1:1: warning: skipped: not valid JSON/);
		expect(stderr).toMatch(/excerpt\.jsonl:2:1: warning: skipped: not valid JSON/);
		expect(tokens(report.summary.billed)).toEqual([1, 8, 0, 500, 16]);
		const strict = await runCli(["replay", file, "--strict"], FIXTURES);
		expect(strict.code).toBe(1);
		expect(strict.stderr).toMatch(/excerpt\.jsonl:1:1: error: not valid JSON/);
	});

	it("folds a sub-agent's file into its session, counted once when both are given", async () => {
		const alone = (await replay("import/bill/cc-subagent/session.jsonl")).report;
		const [session] = alone.sessions;
		expect(session?.subagents).toEqual([
			"import/bill/cc-subagent/session/subagents/agent-a9.jsonl",
		]);
		expect(tokens(session?.billed as Billed)).toEqual([3, 17, 1000, 1350, 41]);
		const both = (await replay("import/bill/cc-subagent")).report;
		expect(both.sessions).toHaveLength(2);
		expect(tokens(both.summary.billed)).toEqual([3, 17, 1000, 1350, 41]);
		await expect(snapshot(both)).toMatchFileSnapshot(join(SNAPSHOTS, "cc-subagent.json"));
	});

	it("leaves a resumed Codex rollout's copy of the older session to that session", async () => {
		const { report } = await replay("import/bill/codex-resumed.jsonl");
		const [session] = report.sessions;
		// The context holds the copied turns (4 calls); the bill only this session's two counts.
		expect(session?.total.calls).toBe(4);
		expect(tokens(session?.billed as Billed)).toEqual([2, 500, 2200, 0, 60]);
		await expect(snapshot(report)).toMatchFileSnapshot(join(SNAPSHOTS, "codex-resumed.json"));
	});

	it("counts a usage field that is no token count as no token, with a located warning", async () => {
		const dir = tempDir();
		// pi's fields: a negative count, one too large to be finite once parsed (1e999), a string.
		const pi = readFileSync(join(FIXTURES, "bill/pi-rewound.jsonl"), "utf8")
			.split("\n")
			.map((line) =>
				line.includes('"id":"a1"')
					? line.replace(/"input":\d+/, '"input":-1').replace(/"output":\d+/, '"output":1e999')
					: line.replace(/"cacheWrite":\d+/, '"cacheWrite":"many"'),
			)
			.join("\n");
		writeFileSync(join(dir, "pi.jsonl"), pi);
		// Claude Code's: a negative output count on every record of the response.
		const cc = readFileSync(join(FIXTURES, "import/bill/cc-synthetic.jsonl"), "utf8").replace(
			/"output_tokens": ?\d+/g,
			'"output_tokens": -5',
		);
		writeFileSync(join(dir, "cc.jsonl"), cc);
		const { report, stderr } = await replay(dir);
		expect(stderr).toMatch(
			/pi\.jsonl:3: warning: the usage's input is -1, no token count: counted as 0/,
		);
		expect(stderr).toMatch(/pi\.jsonl:3: warning: the usage's output is Infinity/);
		expect(stderr).toMatch(/pi\.jsonl:\d+: warning: the usage's cacheWrite is "many"/);
		expect(stderr).toMatch(/cc\.jsonl:\d+: warning: the usage's output_tokens is -5/);
		const [cc1, pi1] = report.sessions;
		for (const b of [cc1?.billed, pi1?.billed] as Billed[]) {
			for (const n of tokens(b)) expect(n).toBeGreaterThanOrEqual(0);
			expect(b.cost).not.toBeNull();
		}
		expect(cc1?.billed.output).toBe(0);
	});

	it("bills an assistant message that starts the branch, and says why it is no call", async () => {
		const lines = readFileSync(join(FIXTURES, "bill/pi-rewound.jsonl"), "utf8")
			.trimEnd()
			.split("\n");
		// The first user message lost: the first answer now starts the branch.
		const file = join(tempDir(), "orphan.jsonl");
		writeFileSync(file, `${lines.filter((l) => !l.includes('"id":"u1"')).join("\n")}\n`);
		const { report, stderr } = await replay(file);
		const [session] = report.sessions;
		expect(session?.calls.map((c) => c.entryId)).not.toContain("a1");
		expect(session?.billed.calls).toBe(3);
		expect(stderr).toMatch(/orphan\.jsonl:2: warning: an assistant message starts the branch/);
	});

	it("bills an imported log as its source: sidechains, sub-agents' logs folded in, a response written twice once, a resumed rollout's copy left out", async () => {
		const out = tempDir();
		// A response written twice (a rewind copies it): one call in the source, one in the log.
		const twice = join(tempDir(), "twice.jsonl");
		const lines = readFileSync(join(FIXTURES, "import/bill/cc-synthetic.jsonl"), "utf8")
			.trimEnd()
			.split("\n");
		const answer = lines.find((l) => l.includes('"type":"assistant"') && l.includes('"usage"'));
		expect(answer).toBeDefined();
		const copy = (answer as string).replace(/"uuid":"([^"]+)"/, '"uuid":"$1-copy"');
		writeFileSync(twice, `${[...lines, copy].join("\n")}\n`);
		const resumed = "import/bill/codex-resumed.jsonl";
		for (const source of [
			"import/bill/cc-sidechain-billed.jsonl",
			"import/bill/cc-subagent",
			twice,
			resumed,
		]) {
			const imported = await runCli(["import", source, "--out", `${out}/`], FIXTURES);
			expect(imported.code, imported.stderr).toBe(0);
		}
		const sources = (
			await replay(
				"import/bill/cc-sidechain-billed.jsonl",
				"import/bill/cc-subagent",
				twice,
				resumed,
			)
		).report;
		expect(sources.sessions.find((x) => x.file.endsWith("twice.jsonl"))?.billed.calls).toBe(1);
		const logs = (await replay(out)).report;
		const byName = (r: Report) =>
			Object.fromEntries(r.sessions.map((x) => [x.file.split("/").at(-1), tokens(x.billed)]));
		expect(byName(logs)).toEqual(byName(sources));
		expect(tokens(logs.summary.billed)).toEqual(tokens(sources.summary.billed));
		expect(logs.sessions.find((x) => x.file.endsWith("session.jsonl"))?.subagents).toHaveLength(1);
	});

	it("shows the bill next to the what-if in text", async () => {
		const result = await runCli(["replay", "bill/pi-rewound.jsonl"], FIXTURES);
		expect(result.stdout).toMatch(/^ {2}what-if: context [\d,]+ (\S+ )?tokens/m);
		expect(result.stdout).toMatch(
			/^ {2}billed: 3 calls: input 21, cache read 4,000, cache write 2,220, output 210 tokens as billed; cost \$/m,
		);
		expect(result.stdout).toMatch(/^billed: 3 calls/m);
	});
});

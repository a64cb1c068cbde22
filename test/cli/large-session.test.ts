/**
 * Sizes past the stack: a session of 200,000 messages through every command
 * that walks its messages (render, inspect, diff over a folder, replay), and
 * the reports that fold a value per message or per call (a framing changed
 * in every message, the growth pairs of every call). Each once spread a
 * per-message array into a call's arguments, which overflows the stack at
 * ~125k (exit 70).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionDiff } from "../../src/measure/compare.js";
import { formatGroups, groupHunks } from "../../src/measure/diff-groups.js";
import type { SessionReplay } from "../../src/replay/replay.js";
import { summarize } from "../../src/replay/summary.js";
import { runCli } from "../support/cli.js";
import { HEADER } from "../support/session.js";
import { tempDir } from "../support/temp.js";
import { editLastLine, twoSets } from "../support/template-sets.js";

const MESSAGES = 200_000;
/** A model call after every this many messages: few calls keep the replay quick. */
const CALL_EVERY = 100;

/** A chain of user messages with a model call every CALL_EVERY, each call's prompt larger. */
function largeLog(path: string): void {
	const lines = [JSON.stringify(HEADER)];
	let parent: string | null = null;
	for (let i = 0; i < MESSAGES; i++) {
		const message =
			i % CALL_EVERY !== CALL_EVERY - 1
				? { role: "user", content: `question ${i}`, timestamp: i }
				: {
						role: "assistant",
						content: [{ type: "text", text: `answer ${i}` }],
						api: "anthropic-messages",
						provider: "anthropic",
						model: "claude-sonnet-4-5",
						usage: { input: 10 + i, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 + i },
						stopReason: "stop",
						timestamp: i,
					};
		const id = `e${i}`;
		const entry = { type: "message", id, parentId: parent, timestamp: HEADER.timestamp, message };
		lines.push(JSON.stringify(entry));
		parent = id;
	}
	writeFileSync(path, `${lines.join("\n")}\n`);
}

// Seconds each on a quiet machine; the limit leaves room for a busy one.
describe("a session of 200,000 messages through the commands", { timeout: 180_000 }, () => {
	const dir = tempDir("theway-large-");
	const log = join(dir, "large.jsonl");
	largeLog(log);
	// A second session, so that diff over the folder groups the hunks they share.
	const small = [
		HEADER,
		{
			type: "message",
			id: "u",
			parentId: null,
			timestamp: HEADER.timestamp,
			message: { role: "user", content: "hi", timestamp: 1 },
		},
	];
	writeFileSync(join(dir, "small.jsonl"), `${small.map((l) => JSON.stringify(l)).join("\n")}\n`);
	const calls = MESSAGES / CALL_EVERY;

	it("renders", async () => {
		const r = await runCli(["render", log, "--format", "json"]);
		expect(r.code, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout).messages).toHaveLength(MESSAGES);
	});

	it("inspects, a row per message", async () => {
		const r = await runCli(["inspect", log, "--tokenizer", "chars"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain(`messages (${MESSAGES})`);
		expect(r.stdout.split("\n").filter((l) => /^ {2}#\d+ /.test(l)).length).toBe(MESSAGES);
	});

	it("diffs a folder holding it", async () => {
		const templates = twoSets({ "harness.hbs": (t) => editLastLine(t, " Always.") });
		const sides = ["--templates", templates, "--from", "v1", "--to", "v2"];
		const r = await runCli(["diff", dir, ...sides, "--tokenizer", "chars", "--jobs", "1"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain("2 sessions: 2 changed");
	});

	it("replays", async () => {
		const r = await runCli(["replay", log, "--tokenizer", "chars", "--format", "json"]);
		expect(r.code, r.stderr).toBe(0);
		const json = JSON.parse(r.stdout);
		expect(json.summary.calls).toBe(calls);
		expect(json.summary.recordedFit.anthropic.calls).toBe(calls - 1);
	});
});

describe("reports folding a value per message or per call", () => {
	it("a framing changed in every one of 200,000 messages: one group, its range of deltas", () => {
		const changed = Array.from({ length: MESSAGES }, (_, i) => ({
			section: `message ${i}`,
			tokensFrom: 5,
			tokensTo: 8 + (i % 3),
			diff: "@@ -1 +1 @@\n-Ran\n+Ran it\n",
			framing: { from: "bash-execution", to: "bash-execution" },
		}));
		const session: SessionDiff = {
			file: "large.jsonl",
			changed,
			tokenDelta: 0,
			unit: "o200k",
			virtualized: { from: { results: 0, saved: 0 }, to: { results: 0, saved: 0 } },
			warnings: [],
		};
		const groups = groupHunks([session]);
		expect(groups).toHaveLength(1);
		expect(groups[0]?.deltas).toHaveLength(MESSAGES);
		const text = formatGroups(groups, false);
		expect(text).toContain(`+3 to +5 tokens, in 1 session (${MESSAGES} messages)`);
		expect(text).toContain("large.jsonl (messages 0, 1, 2,");
	});

	it("the growth pairs of 200,000 calls pooled into one fit", () => {
		const pairs = Array.from({ length: MESSAGES }, (_, i): [number, number] => [10, 10 + (i % 2)]);
		const session = {
			file: "large.jsonl",
			set: "v1",
			calls: [],
			total: {
				calls: MESSAGES,
				contextTokens: 0,
				cachedTokens: 0,
				newTokens: 0,
				outputTokens: 0,
				cost: null,
			},
			recordedFit: null,
			units: {},
			billed: { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: 0 },
			subagents: [],
			notes: {
				unpriced: [],
				priced: [],
				growth: [{ provider: "anthropic", family: "claude", pairs }],
				diagnostics: [],
			},
		} satisfies SessionReplay;
		const fit = summarize([session]).recordedFit.anthropic;
		expect(fit?.calls).toBe(MESSAGES);
		expect(fit?.ratio).toBeCloseTo(1.05, 2);
	});
});

/**
 * The bill against ccusage (20.0.24, `session --json --offline`), the tool
 * people already run on these logs, over the real Claude Code and Codex
 * sessions of the shared corpus: where ccusage's totals are right, replay's
 * `billed` equals them to the token (input, output, cache write, cache read)
 * and its cost to the cent. Where ccusage is wrong, the figures say how: it
 * bills a resumed Codex rollout's copy of the session it resumes a second
 * time. Skipped where the corpus is absent.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Billed } from "../../src/replay/bill.js";
import { runJson } from "../support/cli.js";

const IMPORTERS = join(import.meta.dirname, "../../../shared/corpora/importers");
const FRESH = join(IMPORTERS, "fresh-2026-12-04");

/** ccusage's figures per file: input (uncached), output, cache write, cache read, cost in dollars. */
const CCUSAGE: Record<string, [number, number, number, number, number]> = {
	"claude-code/M-Thisness-M-Claude-3cfce0ff-v2.1.6.jsonl": [2027, 79910, 896833, 8966317, 7.2577],
	"claude-code/M-Thisness-M-Claude-3af9b1a7-v2.1.5.jsonl": [9351, 51937, 744646, 10809828, 6.8425],
	"claude-code/M-Thisness-M-Claude-abc757d1-v2.0.72.jsonl": [258, 42661, 346886, 6387800, 3.8579],
	"claude-code/M-Thisness-M-Claude-43391f62-v2.1.6.jsonl": [2032, 8523, 43460, 1472773, 1.2312],
	"claude-code/M-Thisness-M-Claude-agent-abc3cb6-v2.0.72.jsonl": [
		26244, 3586, 75751, 393107, 0.5345,
	],
	// The session with its five sub-agents' files folded in.
	"claude-code/moredip-session-share-0ccf1a04-v2.1.16/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl": [
		88, 51, 71257, 278912, 0.3362,
	],
	"claude-code/moredip-session-share-47bf5f5c-v2.1.29.jsonl": [22, 16, 56250, 20166, 0.1524],
	"claude-code/moredip-session-share-40c891f7-v2.1.11.jsonl": [8, 2, 419, 29376, 0.0174],
	"codex/EdofEngland-code_butler-019ab760-v0.63.0.jsonl": [16790, 6883, 0, 112640, 0.1039],
	"codex/EdouardZemb-test-framework-019c0e46-v0.92.0.jsonl": [260388, 69306, 0, 10811648, 3.318],
	"codex/EdouardZemb-test-framework-019c2a81-v0.94.0.jsonl": [190318, 22530, 0, 3370880, 1.2384],
	"codex/MoonLadderStudios-MoonMind-019a7ae6-v0.57.0.jsonl": [385593, 45096, 0, 3248000, 1.339],
	"codex/MoonLadderStudios-MoonMind-019a802a-v0.58.0.jsonl": [45265, 25658, 0, 1019264, 0.4406],
	"codex/Prometheus-AGS-prometheus-parking-lot-rs-019af581-v0.2.0-alpha.2-1673.jsonl": [
		1037006, 65255, 0, 13385984, 3.6221,
	],
};

async function billed(file: string): Promise<Billed> {
	const result = await runJson(["replay", file, "--quiet", "--jobs", "1"]);
	expect(result.code, result.stderr).toBe(0);
	return result.json.sessions[0].billed as Billed;
}

const figures = (b: Billed) => [b.input, b.output, b.cacheWrite, b.cacheRead];

describe.skipIf(!existsSync(FRESH))("the bill against ccusage's, on real sessions", () => {
	for (const [file, [input, output, write, read, cost]] of Object.entries(CCUSAGE)) {
		it(`equals ccusage's on ${file.split("/").at(-1)}`, async () => {
			const b = await billed(join(FRESH, file));
			expect(figures(b)).toEqual([input, output, write, read]);
			expect(b.cost).toBeCloseTo(cost, 3);
		});
	}

	it("counts inline sidechains: ccusage's 818 / 51,933 / 137,976 / 3,647,854 (the active branch alone held 373 / 2,636 / 6,672 / 161,313)", async () => {
		const b = await billed(
			join(IMPORTERS, "claude-code/dkimuson-ccv-fe5e1c67-v1.0.98-inline-sidechains.jsonl"),
		);
		expect(figures(b)).toEqual([818, 51933, 137976, 3647854]);
	});

	it("leaves a <synthetic> message out: 91 calls, and a cost", async () => {
		const b = await billed(join(FRESH, "claude-code/M-Thisness-M-Claude-3cfce0ff-v2.1.6.jsonl"));
		expect(b.calls).toBe(91);
		expect(b.cost).not.toBeNull();
	});

	it("bills a resumed rollout's own calls, where ccusage bills the copied ones again", async () => {
		const b = await billed(join(FRESH, "codex/Hoper-J-cpolar-connect-613a9a68-v0.36.0.jsonl"));
		// ccusage: input 333,830, output 42,482, cache read 2,832,640 ($1.1962), the copy included.
		expect(b.calls).toBe(13);
		expect(figures(b)).toEqual([66855, 16568, 0, 819328]);
		expect(b.input).toBeLessThan(333830);
	});
});

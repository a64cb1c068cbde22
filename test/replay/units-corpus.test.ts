/**
 * The shipped units table against the shared corpus of real sessions, when
 * it is there (skipped otherwise): per provider, the median ratio of the
 * recorded prompt's growth to ours is within 0.9–1.1 for Anthropic (pi's
 * logs and Claude Code's), OpenAI (Codex) and every provider with over 100
 * pairs; with o200k for every model, Claude's is not.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionFiles } from "../../src/cli/corpus.js";
import { readUnits, Units } from "../../src/measure/units.js";
import { Prices } from "../../src/replay/prices.js";
import { Replayer } from "../../src/replay/replay.js";
import { summarize } from "../../src/replay/summary.js";
import { compileTemplateSet } from "../../src/templates/compile.js";
import { DEFAULT_TEMPLATES_DIR } from "../../src/templates/load.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";

const CORPORA = join(import.meta.dirname, "../../../shared/corpora");
const PI = join(CORPORA, "pi-real");
const CLAUDE_CODE = ["importers/claude-code", "importers/fresh-2026-12-04/claude-code"];
const CODEX = ["importers/codex", "importers/fresh-2026-12-04/codex"];

function fits(folders: readonly string[], units: Units) {
	const replayer = new Replayer(
		{ side: { templates: DEFAULT_TEMPLATES_DIR } },
		units,
		new Prices(),
		{ compiler: compileTemplateSet },
	);
	const files = folders.flatMap((f) => sessionFiles(join(CORPORA, f)));
	return summarize(files.map((f) => replayer.replay(f))).recordedFit;
}

describe.skipIf(!existsSync(PI))("the units table on the shared corpus", () => {
	const auto = new Units({ table: readUnits() });

	it("fits pi's logs: Anthropic, and every provider with over 100 pairs", () => {
		const fit = fits(["pi-real"], auto);
		expect(fit.anthropic?.calls).toBeGreaterThan(100);
		for (const [provider, f] of Object.entries(fit)) {
			if (provider !== "anthropic" && f.calls <= 100) continue;
			expect(f.ratio, provider).toBeGreaterThanOrEqual(0.9);
			expect(f.ratio, provider).toBeLessThanOrEqual(1.1);
		}
		const o200k = fits(["pi-real"], Units.of(loadTokenizerSync("o200k")));
		expect(o200k.anthropic?.ratio).toBeGreaterThan(1.3);
	}, 120_000);

	it("fits Claude Code's sessions (Anthropic) and Codex's (OpenAI)", () => {
		const claude = fits(CLAUDE_CODE, auto).anthropic;
		const codex = fits(CODEX, auto).openai;
		for (const f of [claude, codex]) {
			expect(f?.calls).toBeGreaterThan(100);
			expect(f?.ratio).toBeGreaterThanOrEqual(0.9);
			expect(f?.ratio).toBeLessThanOrEqual(1.1);
		}
	}, 120_000);
});

/**
 * The shared corpus of real Claude Code and Codex sessions, when it is
 * present (skipped cleanly otherwise): every file imports with no error,
 * loads under --strict, converts for the model, and gives the message count
 * checked by hand once against the source (user prompts, API responses and
 * tool results on the active branch, counted with a separate script).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importSession } from "../../src/import/convert.js";
import { findSessionLogs } from "../../src/log/files.js";
import { ContextService } from "../../src/service/context-service.js";
import { tempDir } from "../support/temp.js";

const CORPUS = join(import.meta.dirname, "../../../shared/corpora/importers");

/** Messages on the active branch, by role, as checked by hand. */
const EXPECTED: Record<string, Record<string, number>> = {
	"claude-code/daaain-ccl-4379d1bf-v1.0.128-user-image.jsonl": {
		user: 7,
		assistant: 3,
		toolResult: 2,
	},
	// the rewind branch is left; the compaction's summary, then what follows it
	"claude-code/daaain-ccl-dag_compact_after_rewind-synthetic.jsonl": {
		compactionSummary: 1,
		user: 1,
		assistant: 1,
	},
	// 17 responses, 4 of them streamed over tool results; 40 results, parallel ones included
	"claude-code/daaain-ccl-ef958aa1-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl": {
		user: 5,
		assistant: 17,
		toolResult: 40,
	},
	"claude-code/daaain-ccl-ef958aa1-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a36efb2a1231c41e2.jsonl":
		{ user: 1, assistant: 6, toolResult: 7 },
	"claude-code/daaain-ccl-fe869ecb-v1.0.24-summaries-thinking.jsonl": {
		user: 5,
		assistant: 34,
		toolResult: 32,
	},
	// 405 sidechain records stay out
	"claude-code/dkimuson-ccv-fe5e1c67-v1.0.98-inline-sidechains.jsonl": {
		user: 3,
		assistant: 9,
		toolResult: 11,
	},
	"claude-code/drmaciver-reliability-coverage-test-fix-v2.1.14.jsonl": {
		user: 3,
		assistant: 14,
		toolResult: 13,
	},
	// a catalogue of shapes whose uuids were all trimmed to one value: no meaningful tree
	"claude-code/jazzyalex-agent-sessions-claude-small-catalogue.jsonl": { user: 2 },
	"claude-code/kvsankar-agent-history-session-01-v2.1.152-redacted.jsonl": {
		user: 1,
		assistant: 1,
	},
	// ends mid-turn; the environment context is a custom message
	"codex/acidicsoil-csv-rollout-2025-11-17T15-30-28-019a93b9-v0.58.0.jsonl": {
		custom: 1,
		user: 1,
		assistant: 39,
		toolResult: 39,
	},
	"codex/daaain-ccl-legacy-pre-envelope-synthetic.jsonl": { user: 1, assistant: 1 },
	"codex/jazzyalex-agent-sessions-codex-small-catalogue-v0.146.jsonl": {
		compactionSummary: 1,
		assistant: 1,
		toolResult: 1,
	},
	"codex/kvsankar-agent-history-compaction-local-summary-synthetic.jsonl": {
		compactionSummary: 1,
		user: 1,
		assistant: 2,
		toolResult: 1,
	},
	// the developer message and the AGENTS.md instructions are custom messages
	"codex/kvsankar-agent-history-session-01-v0.135.0-redacted.jsonl": {
		custom: 2,
		user: 1,
		assistant: 1,
	},
};

describe.skipIf(!existsSync(CORPUS))("the shared corpus of real sessions", () => {
	it("imports, loads under --strict and renders every file, with the counts checked by hand", () => {
		const out = tempDir("theway-import-corpus-");
		const service = new ContextService({ strict: true });
		const lenient = new ContextService();
		const seen: string[] = [];
		for (const file of findSessionLogs(CORPUS)) {
			const name = relative(CORPUS, file);
			const result = importSession(readFileSync(file), file);
			const log = join(out, name.replaceAll("/", "__"));
			writeFileSync(log, result.text);
			const direct = new ContextService().loadSync(file);
			if (EXPECTED[name] === undefined) {
				// Added to the corpus later, its counts not checked by hand: it imports,
				// renders, and reads directly as imported.
				const bundle = lenient.loadSync(log);
				expect(lenient.convertToLlm(bundle).length, name).toBeGreaterThan(0);
				expect(direct.messages.length, name).toBe(bundle.messages.length);
				continue;
			}
			seen.push(name);
			const bundle = service.loadSync(log);
			expect(service.convertToLlm(bundle).length).toBeGreaterThan(0);
			const byRole: Record<string, number> = {};
			for (const m of bundle.messages) byRole[m.role] = (byRole[m.role] ?? 0) + 1;
			expect(byRole, name).toEqual(EXPECTED[name]);
			expect(direct.messages.length, name).toBe(bundle.messages.length);
		}
		expect(seen.sort()).toEqual(Object.keys(EXPECTED).sort());
	});
});

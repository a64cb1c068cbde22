/**
 * Replay agrees with `inspect`: at every call, the context it counts is the
 * one `inspect --leaf <the call's parent>` measures, to the token, under the
 * session's own set and under another. Run over every fixture log, over a
 * log whose calls record hidden reasoning (Codex's, counted at its recorded
 * size by both), and over the pi sample logs when they are present.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { measureLoaded, measuringService } from "../../src/measure/session.js";
import { CallCounter } from "../../src/replay/count.js";
import { SessionWalk } from "../../src/replay/walk.js";
import { DEFAULT_TEMPLATES_DIR } from "../../src/templates/load.js";
import { TemplateRegistry } from "../../src/templates/registry.js";
import { loadTokenizerSync } from "../../src/text/tokenizer.js";
import { entry, HEADER, user, writeLog } from "../support/session.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");
const PI_REAL = join(import.meta.dirname, "../../../shared/corpora/pi-real");
const logsIn = (dir: string) =>
	readdirSync(dir)
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(dir, f));
const LOGS = ["examples", "pi", "sessions"].flatMap((d) => logsIn(join(FIXTURES, d)));

const tokenizer = loadTokenizerSync("o200k");
const registry = new TemplateRegistry(DEFAULT_TEMPLATES_DIR);

/** Every call's counted context against inspect's total for the same leaf and set. */
function checkAgainstInspect(file: string, version?: string): number {
	const walk = new SessionWalk(file);
	const target = measuringService();
	let checked = 0;
	const pinned = walk.pin?.version;
	const set = registry.get(
		version ?? (pinned !== undefined && registry.versions().includes(pinned) ? pinned : undefined),
	);
	const counter = new CallCounter(set, tokenizer);
	for (const call of walk.walk(set)) {
		const counted = counter.count(call);
		const { size } = measureLoaded(target, file, tokenizer, {
			leaf: call.parentId,
			templateVersion: set.version,
		});
		expect(counted.contextTokens, `${file} call ${call.index}`).toBe(size.total.tokens);
		expect(counted.wholeTokens, `${file} call ${call.index} whole`).toBe(size.virtualized.before);
		checked++;
	}
	return checked;
}

describe("replay agrees with inspect at every call", () => {
	it.each(LOGS.map((f) => [f.slice(FIXTURES.length + 1), f]))("%s", (_, file) => {
		for (const version of registry.versions()) checkAgainstInspect(file, version);
	});

	it("agrees under the set each session pins", () => {
		const total = LOGS.reduce((n, f) => n + checkAgainstInspect(f), 0);
		expect(total).toBeGreaterThan(10);
	});

	it("agrees where a call's hidden reasoning is counted at its recorded size", () => {
		const answer = (id: string, parent: string, reasoning: number) =>
			entry(id, parent, {
				type: "message",
				message: {
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "a short summary of the reasoning" },
						{ type: "text", text: `answer ${id}` },
					],
					api: "openai-responses",
					provider: "openai",
					model: "gpt-5-codex",
					usage: { input: 10, output: 20, reasoning },
					stopReason: "stop",
					timestamp: 2,
				},
			});
		const file = writeLog([
			HEADER,
			user("u1", null, "first question"),
			answer("a1", "u1", 700),
			user("u2", "a1", "second question"),
			answer("a2", "u2", 300),
			user("u3", "a2", "third question"),
			answer("a3", "u3", 100),
		]);
		expect(checkAgainstInspect(file)).toBe(3);
		const { size } = measureLoaded(measuringService(), file, tokenizer);
		const counted = size.messages.filter((m) => m.reasoning !== undefined);
		expect(counted.map((m) => m.reasoning)).toEqual([700, 300, 100]);
		for (const m of counted) expect(m.tokens).toBeGreaterThan(m.reasoning as number);
	});

	it.skipIf(!existsSync(PI_REAL))("agrees on the pi sample logs", () => {
		for (const file of logsIn(PI_REAL).slice(0, 4)) checkAgainstInspect(file);
	});
});

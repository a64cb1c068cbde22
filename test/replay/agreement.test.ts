/**
 * Replay agrees with `inspect`: at every call, the context it counts is the
 * one `inspect --leaf <the call's parent>` measures, to the token, under the
 * session's own set and under another. Run over every fixture log, and over
 * the pi sample logs when they are present.
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

	it.skipIf(!existsSync(PI_REAL))("agrees on the pi sample logs", () => {
		for (const file of logsIn(PI_REAL).slice(0, 4)) checkAgainstInspect(file);
	});
});

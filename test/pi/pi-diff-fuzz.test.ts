/**
 * The differential test against pi on generated logs: random session logs
 * in pi's format (`support/pi-session-logs.ts`: every entry type, versions 1
 * to 3, trees of several branches, compactions naming anything as their
 * first kept entry, duplicate ids, dangling parents, blank and malformed
 * lines) are loaded by pi 0.73.1 (one child serves the whole run) and by
 * ContextService, and the provider-ready messages must be the same, with the
 * deliberate differences accounted for as in `pi-diff.test.ts`
 * (`support/pi-reference.ts`). Counters assert that the generator reaches
 * each edge case. `FUZZ_RUNS` scales the number of logs.
 *
 * Without pi installed (`npm run pi-reference`) the test is skipped locally
 * (saying so) and fails under CI.
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ContextService } from "../../src/index.js";
import { buildPiLog } from "../support/pi-log-build.js";
import { reach } from "../support/pi-reach.js";
import {
	expectSameAsPi,
	INSTALLED,
	PI_VERSION,
	PiServer,
	requirePiUnderCi,
} from "../support/pi-reference.js";
import { piLogSpec } from "../support/pi-session-logs.js";
import { budget, retain, runs, TIMEOUT, tally } from "../support/properties.js";
import { tempDir } from "../support/temp.js";

requirePiUnderCi("the differential property against pi");

/** The edge cases, and the share of the logs that must reach each one. */
const REACHED: Record<string, number> = {
	"version 1": 0.1,
	"version 2": 0.1,
	"version 3": 0.3,
	"tree: a fork": 0.1,
	"tree: several forks": 0.03,
	"leaf: not the last message": 0.05,
	"leaf: not a message entry": 0.1,
	"compaction: on the branch": 0.1,
	"compaction: several on the branch": 0.02,
	"kept: a message before it": 0.03,
	"kept: a non-message entry before it": 0.01,
	"kept: an older compaction within": 0.005,
	"kept: the compaction itself": 0.005,
	"kept: after it, on the branch": 0.002,
	"kept: on another branch": 0.005,
	"kept: names nothing": 0.005,
	"kept: absent": 0.005,
	"kept: by v1 index": 0.01,
	"branch summary: text": 0.03,
	"branch summary: empty": 0.01,
	"custom_message: string": 0.03,
	"custom_message: blocks": 0.03,
	"custom_message: display true": 0.03,
	"custom_message: display false": 0.03,
	"custom_message: a block neither text nor image": 0.01,
	"entry: custom": 0.02,
	"custom: compact_context": 0.02,
	"entry: label": 0.05,
	"entry: session_info": 0.05,
	"entry: model_change": 0.03,
	"entry: thinking_level_change": 0.03,
	"entry: future_entry": 0.01,
	"entry: message custom": 0.03,
	"entry: message hookMessage": 0.005,
	"entry: message system": 0.005,
	"entry: message toolResult": 0.1,
	"bash: excludeFromContext true": 0.02,
	"bash: excludeFromContext false": 0.02,
	"user: an image": 0.05,
	"assistant: a tool call": 0.05,
	"assistant: thinking": 0.05,
	"duplicate id: on the branch": 0.03,
	"parent: names nothing, on the branch": 0.03,
	"parent: a later entry, on the branch": 0.01,
	"cycle: off the branch": 0.005,
	"timestamp: not what pi writes": 0.02,
	"message: a string timestamp, made user text": 0.005,
	"line: blank": 0.05,
	"line: malformed": 0.05,
	"line: scalar": 0.02,
	"lead: byte-order mark": 0.005,
	"lead: blank lines": 0.01,
	"eol: CRLF": 0.05,
	"line: header": 0.02,
	"line: entries joined by a lone CR": 0.02,
	"line: an entry padded with spaces and tabs": 0.05,
	"header: version 1 said": 0.05,
	"v1: ids of its own": 0.05,
	"id: an odd one, on the branch": 0.02,
	"parent: an odd id naming nothing, on the branch": 0.01,
	"context: 5 entries or more": 0.15,
	"read: appended to after a first load": 0.2,
	"read: first load cut mid-line": 0.1,
	"read: asynchronously": 0.3,
	"read: a small memory budget": 0.2,
};

/**
 * How theway reads a log: with a memory budget (entries let go and read back),
 * asynchronously, or first cut short at any byte, then appended to and read
 * again (the kept session resumes where it stopped).
 */
const reading = fc.record({
	retain: retain,
	async: fc.boolean(),
	cut: fc.option(fc.nat(), { nil: undefined, freq: 3 }),
});

describe.skipIf(!INSTALLED)(`generated logs: the same messages as pi ${PI_VERSION}`, () => {
	const dir = tempDir("theway-pi-fuzz-");
	const pi = new PiServer();
	afterAll(() => pi.close());
	const services = new Map<number | undefined, ContextService>();
	const serviceFor = (retainBytes: number | undefined): ContextService => {
		let service = services.get(retainBytes);
		if (service === undefined) {
			service = new ContextService(budget(retainBytes));
			services.set(retainBytes, service);
		}
		return service;
	};
	let count = 0;

	it(
		"every generated pi log gives pi's messages, and the generator reaches every edge case",
		async () => {
			const counts = tally();
			const total = runs(10);
			let escaped = 0;
			await fc.assert(
				fc.asyncProperty(piLogSpec(), reading, async (spec, how) => {
					const log = buildPiLog(spec);
					const file = join(dir, `log-${++count}.jsonl`);
					const service = serviceFor(how.retain);
					const load = () =>
						how.async
							? service.load(file, { virtualize: false })
							: service.loadSync(file, { virtualize: false });
					const bytes = Buffer.from(log.text);
					try {
						if (how.cut !== undefined && bytes.length > 0) {
							const at = how.cut % bytes.length;
							writeFileSync(file, bytes.subarray(0, at));
							try {
								await load();
							} catch {
								// the header itself was cut: nothing is kept to resume
							}
							appendFileSync(file, bytes.subarray(at));
							counts.hit("read: appended to after a first load");
							counts.hit("read: first load cut mid-line", at > 0 && bytes[at - 1] !== 0x0a);
						} else {
							writeFileSync(file, bytes);
						}
						const reference = await pi.ask(file);
						const bundle = await load();
						escaped += expectSameAsPi(service, bundle, log.text, reference).escaped;
						// The same leaf (pi gives a version-1 log random ids: only later versions compare).
						if (spec.version >= 2) expect(bundle.meta.leafId).toBe(reference.leafId ?? null);
					} finally {
						rmSync(file, { force: true });
						service.close(file);
					}
					counts.hit("read: asynchronously", how.async);
					counts.hit("read: a small memory budget", how.retain !== undefined && how.retain < 1000);
					for (const name of reach(log)) counts.hit(name);
				}),
				{
					numRuns: total,
					// Replays a failure: FUZZ_SEED and FUZZ_PATH as fast-check printed them.
					...(process.env.FUZZ_SEED === undefined
						? {}
						: { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH ?? "" }),
				},
			);
			if (process.env.PI_FUZZ_COUNTS === "1") {
				const lines = Object.keys(REACHED).map((name) => `${name}: ${counts.count(name)}`);
				console.log(`${total} logs\n${lines.join("\n")}`);
			}
			if (process.env.FUZZ_SEED !== undefined) return; // a replay runs too few logs to count
			for (const [name, share] of Object.entries(REACHED)) counts.reached(name, total, share);
			expect(escaped, "session text with reserved markers was escaped").toBeGreaterThan(0);
		},
		TIMEOUT,
	);
});

/**
 * The differential test against pi itself: every session log of the repo (test/fixtures, and test/damaged for what strict mode refuses)
 * is loaded by pi 0.73.1 (its own SessionManager, buildSessionContext and
 * convertToLlm, run in a child process by scripts/pi-context.mjs) and by
 * ContextService, and the provider-ready messages must be the same, in
 * order: roles, content and timestamps.
 *
 * The differences that are deliberate are accounted for one by one:
 * - session text that holds a reserved tag or a framing marker (a summary, a
 *   custom message, command output) is escaped by theway: the expectation is
 *   pi's text with exactly those fields passed through the neutraliser;
 * - theway's own `compact_context` entry becomes a `collapse_context`
 *   message pi does not know (each such message is checked to come from one);
 * - a tool result over the template set's threshold reaches the model as a
 *   stub: the comparison loads with `virtualize: false`, theway's pi projection;
 * - a framing (compaction or branch summary, bash execution) the template set
 *   words otherwise than pi (a prompt engineer's edit) is compared with the
 *   set's framing of pi's own message: the same fields, read the same way;
 *   wherever the set frames pi's message as pi does, the text must be pi's.
 * - the fixtures listed in {@link PI_NEVER_RETURNS} make pi loop forever:
 *   pi is checked to time out on them, theway to load them with a warning.
 *
 * pi is ~200 MB with its dependencies, so it is not a dependency of the
 * package: `npm run pi-reference` installs it into a cache folder. Without
 * it the test is skipped locally (saying so) and fails under CI.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import {
	type ContextBundle,
	type ContextMessage,
	ContextService,
	type LlmMessage,
} from "../src/index.js";
import { findSessionLogs } from "../src/log/files.js";
import { convertMessage } from "../src/render/convert.js";
import type { TemplateSet } from "../src/templates/set.js";
import { neutralize } from "../src/view/neutralize.js";
import { tempDir } from "./support/temp.js";

const PI_VERSION = "0.73.1";
const REFERENCE =
	process.env.PI_REFERENCE_DIR ??
	join(
		process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
		"theway-context",
		`pi-${PI_VERSION}`,
	);
const INSTALLED = existsSync(
	join(REFERENCE, "node_modules/@mariozechner/pi-coding-agent/package.json"),
);
const ROOT = join(import.meta.dirname, "..");
const FIXTURES = join(ROOT, "test/fixtures");
/** Damaged pi logs: pi reads them, strict mode (and so the build step's snapshots) refuses them. */
const DAMAGED = join(ROOT, "test/damaged");
const SCRIPT = join(ROOT, "scripts/pi-context.mjs");
/** pi reads copies in a temporary folder, ours: a child killed on a time-out cannot leave it behind. */
const PI_ENV = { ...process.env, TMPDIR: tempDir("theway-pi-") };

/**
 * Fixtures pi never finishes loading, and why. Its branch walk
 * (session-manager.js, buildSessionContext: `while (current) { path.unshift… }`)
 * has no guard against a parentId cycle.
 */
const PI_NEVER_RETURNS: Record<string, string> = {
	"damaged/pi/cycle": "buildSessionContext walks a parentId cycle forever",
};

interface PiMessage {
	role: string;
	summary?: string;
	content?: unknown;
	command?: string;
	output?: string;
	fullOutputPath?: string;
}
interface PiResult {
	file: string;
	messages?: PiMessage[];
	llm?: LlmMessage[];
	error?: string;
}

/** More logs to compare, by hand: `PI_DIFF_EXTRA=folder` (real logs kept outside the repo). */
const EXTRA = process.env.PI_DIFF_EXTRA;
const fixtures = [
	...findSessionLogs(FIXTURES).map((file) => ({
		file,
		name: relative(FIXTURES, file).replace(/\.jsonl$/, ""),
	})),
	...findSessionLogs(DAMAGED).map((file) => ({
		file,
		name: `damaged/${relative(DAMAGED, file).replace(/\.jsonl$/, "")}`,
	})),
	...(EXTRA === undefined ? [] : findSessionLogs(EXTRA)).map((file) => ({
		file,
		name: `extra/${relative(EXTRA as string, file).replace(/\.jsonl$/, "")}`,
	})),
];

/** pi's context for each fixture that pi finishes loading, in one child process. */
function runPi(files: readonly string[]): Map<string, PiResult> {
	const run = spawnSync(process.execPath, [SCRIPT, REFERENCE, ...files], {
		env: PI_ENV,
		encoding: "utf8",
		timeout: 120_000,
		maxBuffer: 64 * 1024 * 1024,
	});
	if (run.status !== 0) throw new Error(`pi reference failed: ${run.stderr || run.error}`);
	const out = new Map<string, PiResult>();
	for (const line of run.stdout.split("\n")) {
		if (line === "") continue;
		const result = JSON.parse(line) as PiResult;
		out.set(result.file, result);
	}
	return out;
}

/** The session text of a pi message: the fields theway neutralises, and whether as one line. */
function sessionText(m: PiMessage): { raw: string; line: boolean }[] {
	const block = (raw: string | undefined) => ({ raw: raw ?? "", line: false });
	switch (m.role) {
		case "compactionSummary":
		case "branchSummary":
			return [block(m.summary)];
		case "custom":
			if (typeof m.content === "string") return [block(m.content)];
			return (m.content as { type: string; text?: unknown }[])
				.filter((b) => b.type === "text" && typeof b.text === "string")
				.map((b) => block(b.text as string));
		case "bashExecution":
			return [block(m.command), block(m.output), { raw: m.fullOutputPath ?? "", line: true }];
		default:
			return []; // user, assistant and tool results pass as they are
	}
}

/**
 * pi's provider-ready message with theway's deliberate escaping applied: each
 * session-text field of the source message replaced, where it appears, by
 * its neutralised form. Returns how many fields the escaping changed.
 */
function escapedLike(
	llm: LlmMessage,
	source: PiMessage,
	markers: readonly string[],
): { message: unknown; escaped: number } {
	let json = JSON.stringify(llm);
	let escaped = 0;
	for (const { raw, line } of sessionText(source)) {
		const clean = neutralize(raw, markers, { line });
		if (raw === "" || clean === raw) continue;
		const from = JSON.stringify(raw).slice(1, -1);
		expect(json, `pi's text holds the field ${from}`).toContain(from);
		json = json.split(from).join(JSON.stringify(clean).slice(1, -1));
		escaped++;
	}
	return { message: JSON.parse(json), escaped };
}

/** The roles a template set frames: their wording is the set's to choose. */
const FRAMED = new Set(["compactionSummary", "branchSummary", "bashExecution"]);

/**
 * What theway must give for pi's message `source`, whose provider-ready form
 * pi gave as `piForm` (escaped as theway escapes): pi's form itself, unless
 * the set frames this message otherwise than pi, then the set's framing of
 * pi's message.
 */
function reworded(source: PiMessage, piForm: unknown, set: TemplateSet): unknown {
	if (!FRAMED.has(source.role)) return piForm;
	const framed = convertMessage(source as unknown as ContextMessage, set);
	return isDeepStrictEqual(framed, piForm) ? piForm : framed;
}

/**
 * Our provider-ready messages, without theway's collapse summary: each one
 * left out is checked to come from a `compact_context` entry of the file.
 */
function ours(service: ContextService, bundle: ContextBundle, text: string): LlmMessage[] {
	const compactContexts = new Set(
		text
			.split("\n")
			.filter((line) => line.includes('"compact_context"'))
			.map((line) => (JSON.parse(line) as { id: string }).id),
	);
	const kept = bundle.messages.filter((m, i) => {
		if (m.role !== "collapse_context") return true;
		expect(compactContexts).toContain(bundle.entryIds[i]);
		return false;
	});
	const llm = service.convertToLlm({ ...bundle, messages: kept });
	return JSON.parse(JSON.stringify(llm)) as LlmMessage[];
}

if (!INSTALLED && process.env.CI !== "true") {
	console.warn(
		`\n!!! pi ${PI_VERSION} reference not installed at ${REFERENCE}: the differential test against pi is SKIPPED.\n!!! Install it with: npm run pi-reference   (scripts/install-pi-reference.sh)\n`,
	);
}

describe("the pi reference", () => {
	it.runIf(process.env.CI === "true")("is installed under CI", () => {
		expect(
			INSTALLED,
			`pi ${PI_VERSION} must be installed at ${REFERENCE} (npm run pi-reference)`,
		).toBe(true);
	});
});

describe.skipIf(!INSTALLED)(`the same messages as pi ${PI_VERSION}`, () => {
	const comparable = fixtures.filter((f) => PI_NEVER_RETURNS[f.name] === undefined);
	const pi = INSTALLED ? runPi(comparable.map((f) => f.file)) : new Map<string, PiResult>();
	const service = new ContextService();
	const markers = service.templateSet().markers;
	let escapedFixtures = 0;

	it("covers every fixture, the crafted pi edge cases included", () => {
		expect(comparable.length + Object.keys(PI_NEVER_RETURNS).length).toBe(fixtures.length);
		expect(fixtures.filter((f) => f.name.includes("pi/")).length).toBeGreaterThanOrEqual(12);
		for (const name of Object.keys(PI_NEVER_RETURNS)) {
			expect(fixtures.map((f) => f.name)).toContain(name);
		}
	});

	for (const { file, name } of comparable) {
		it(name, () => {
			const reference = pi.get(file);
			expect(reference?.error, "pi failed to load it").toBeUndefined();
			const piMessages = reference?.messages as PiMessage[];
			const piLlm = reference?.llm as LlmMessage[];
			const bundle = service.loadSync(file, { virtualize: false });
			const mine = ours(service, bundle, readFileSync(file, "utf8"));
			expect(mine.map((m) => m.role)).toEqual(piLlm.map((m) => m.role));
			// pi's convertToLlm drops only excluded bash executions: line its messages up with theway's.
			const sources = piMessages.filter(
				(m) =>
					!(
						m.role === "bashExecution" && (m as { excludeFromContext?: boolean }).excludeFromContext
					),
			);
			expect(sources).toHaveLength(piLlm.length);
			let escaped = 0;
			const set = service.templateSet(bundle.meta.templateVersion);
			piLlm.forEach((message, i) => {
				const source = sources[i] as PiMessage;
				const expected = escapedLike(message, source, markers);
				escaped += expected.escaped;
				expect(mine[i], `message ${i} (${source.role})`).toStrictEqual(
					reworded(source, expected.message, set),
				);
			});
			if (escaped > 0) escapedFixtures++;
		});
	}

	it("escapes session text only where it holds reserved tags or markers (one crafted fixture)", () => {
		expect(escapedFixtures).toBe(1);
	});

	for (const [name, why] of Object.entries(PI_NEVER_RETURNS)) {
		it(`${name}: pi never returns (${why}); theway loads it and warns`, () => {
			const file = (fixtures.find((f) => f.name === name) as { file: string }).file;
			const run = spawnSync(process.execPath, [SCRIPT, REFERENCE, file], {
				env: PI_ENV,
				encoding: "utf8",
				timeout: 4000,
			});
			expect(run.signal, "pi finished: the difference is gone").toBe("SIGTERM");
			const bundle = service.loadSync(file);
			expect(bundle.meta.diagnostics.map((d) => d.code)).toContain("parent_cycle");
		});
	}
});

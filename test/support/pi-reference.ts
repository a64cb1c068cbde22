/**
 * The differential tests' side of pi: where the pinned pi is installed,
 * running it on logs (a batch in one child, or a child serving a whole
 * property run), and comparing its provider-ready messages with ours,
 * the deliberate differences accounted for one by one:
 * - session text that holds a reserved tag or a framing marker (a summary, a
 *   custom message, command output) is escaped by theway: the expectation is
 *   pi's own conversion of its message with exactly those fields passed
 *   through the neutraliser;
 * - theway's own `compact_context` entry becomes a `collapse_context`
 *   message pi does not know (each such message is checked to come from one);
 * - a tool result over the template set's threshold reaches the model as a
 *   stub: the comparison loads with `virtualize: false`, theway's pi projection;
 * - a framing (compaction or branch summary, bash execution) the template set
 *   words otherwise than pi (a prompt engineer's edit) is compared with the
 *   set's framing of pi's own message: the same fields, read the same way;
 *   wherever the set frames pi's message as pi does, the text must be pi's;
 * - a derived message (a custom message, a summary) whose entry's timestamp
 *   is not an ISO 8601 date and time with an offset: theway warns and leaves
 *   the time out, pi takes whatever `new Date()` makes of it (NaN for no
 *   date, a local time for one without an offset).
 *
 * pi is ~200 MB with its dependencies, so it is not a dependency of the
 * package: `npm run pi-reference` installs it into a cache folder. Without
 * it the tests are skipped locally (saying so) and fail under CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type { ContextBundle, ContextMessage, ContextService, LlmMessage } from "../../src/index.js";
import { v1EntryId } from "../../src/log/migrate.js";
import { convertMessage } from "../../src/render/convert.js";
import type { TemplateSet } from "../../src/templates/set.js";
import { neutralize } from "../../src/view/neutralize.js";
import { tempDir } from "./temp.js";

export const PI_VERSION = "0.73.1";
export const REFERENCE =
	process.env.PI_REFERENCE_DIR ??
	join(
		process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
		"theway-context",
		`pi-${PI_VERSION}`,
	);
const CORE = join(REFERENCE, "node_modules/@mariozechner/pi-coding-agent/dist/core");
export const INSTALLED = existsSync(
	join(REFERENCE, "node_modules/@mariozechner/pi-coding-agent/package.json"),
);
export const SCRIPT = join(import.meta.dirname, "../../scripts/pi-context.mjs");
/** pi reads copies in a temporary folder, ours: a child killed on a time-out cannot leave it behind. */
export const PI_ENV = { ...process.env, TMPDIR: tempDir("theway-pi-") };

/** pi's own `convertToLlm` (messages.js imports nothing), to convert an escaped message as pi would. */
const piConvertToLlm: ((messages: unknown[]) => unknown[]) | undefined = INSTALLED
	? (await import(pathToFileURL(join(CORE, "messages.js")).href)).convertToLlm
	: undefined;

export interface PiMessage {
	role: string;
	summary?: string;
	content?: unknown;
	command?: string;
	output?: string;
	fullOutputPath?: string;
	excludeFromContext?: boolean;
	timestamp?: unknown;
}
export interface PiResult {
	file: string;
	leafId?: string | null;
	messages?: PiMessage[];
	llm?: LlmMessage[];
	error?: string;
}

/**
 * Registers the check that pi is installed under CI, and says loudly when a
 * local run skips the tests of `what` for want of it.
 */
export function requirePiUnderCi(what: string): void {
	if (!INSTALLED && process.env.CI !== "true") {
		console.warn(
			`\n!!! pi ${PI_VERSION} reference not installed at ${REFERENCE}: ${what} is SKIPPED.\n!!! Install it with: npm run pi-reference   (scripts/install-pi-reference.sh)\n`,
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
}

function parseResults(stdout: string, out: Map<string, PiResult>): void {
	for (const line of stdout.split("\n")) {
		if (line === "") continue;
		const result = JSON.parse(line) as PiResult;
		out.set(result.file, result);
	}
}

/** pi's context for each of `files`, in one child process. */
export function runPi(files: readonly string[]): Map<string, PiResult> {
	const run = spawnSync(process.execPath, [SCRIPT, REFERENCE, ...files], {
		env: PI_ENV,
		encoding: "utf8",
		timeout: 120_000,
		maxBuffer: 64 * 1024 * 1024,
	});
	if (run.status !== 0) throw new Error(`pi reference failed: ${run.stderr || run.error}`);
	const out = new Map<string, PiResult>();
	parseResults(run.stdout, out);
	return out;
}

/**
 * One pi child serving many logs in turn (`pi-context.mjs --serve`): a
 * property run costs one start of pi, not one per log. A log pi takes longer
 * than `timeoutMs` on rejects its question, and the child is started again.
 */
export class PiServer {
	private child: ChildProcess | undefined;
	private waiting: ((line: string) => void) | undefined;

	constructor(private readonly timeoutMs = 10_000) {}

	private start(): ChildProcess {
		const child = spawn(process.execPath, [SCRIPT, REFERENCE, "--serve"], {
			env: PI_ENV,
			stdio: ["pipe", "pipe", "inherit"],
		});
		createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
			const resolve = this.waiting;
			this.waiting = undefined;
			resolve?.(line);
		});
		child.on("exit", () => {
			if (this.child === child) this.child = undefined;
		});
		this.child = child;
		return child;
	}

	/** pi's context for the log at `file`. */
	ask(file: string): Promise<PiResult> {
		const child = this.child ?? this.start();
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiting = undefined;
				this.close();
				reject(new Error(`pi did not answer within ${this.timeoutMs} ms`));
			}, this.timeoutMs);
			this.waiting = (line) => {
				clearTimeout(timer);
				const result = JSON.parse(line) as PiResult;
				if (result.file === file) resolve(result);
				else reject(new Error(`pi answered for ${result.file}, asked for ${file}`));
			};
			child.stdin?.write(`${file}\n`);
		});
	}

	close(): void {
		const child = this.child;
		this.child = undefined;
		if (child !== undefined && child.exitCode === null) child.kill();
	}
}

/** The roles pi's convertToLlm knows; a message of any other role it leaves out. */
const PI_ROLES = new Set([
	"user",
	"assistant",
	"toolResult",
	"custom",
	"branchSummary",
	"compactionSummary",
	"bashExecution",
]);

/** Whether pi's convertToLlm gives `m` to the model (not an excluded bash execution, a known role). */
export function reachesModel(m: PiMessage): boolean {
	if (m.role === "bashExecution") return m.excludeFromContext !== true;
	return PI_ROLES.has(m.role);
}

/**
 * pi's message `m` with its session text neutralised as theway neutralises
 * it (the fields that become user text), and how many fields that changed.
 */
function escapedSource(
	m: PiMessage,
	markers: readonly string[],
): { source: PiMessage; escaped: number } {
	let escaped = 0;
	const clean = (raw: unknown, line = false): unknown => {
		if (typeof raw !== "string") return raw;
		const out = neutralize(raw, markers, { line });
		if (out !== raw) escaped++;
		return out;
	};
	const source = { ...m };
	switch (m.role) {
		case "compactionSummary":
		case "branchSummary":
			source.summary = clean(m.summary) as string;
			break;
		case "custom": {
			// Every string of the content, however deep and whatever its block, but an image's data.
			const deep = (value: unknown, key?: string, image = false): unknown => {
				if (typeof value === "string") return image && key === "data" ? value : clean(value);
				if (Array.isArray(value)) return value.map((v) => deep(v));
				if (value === null || typeof value !== "object") return value;
				const o = value as Record<string, unknown>;
				const entries = Object.entries(o).map(([k, v]) => [k, deep(v, k, o.type === "image")]);
				return Object.fromEntries(entries);
			};
			source.content = deep(m.content);
			break;
		}
		case "bashExecution":
			source.command = clean(m.command) as string;
			source.output = clean(m.output) as string;
			if (m.fullOutputPath !== undefined)
				source.fullOutputPath = clean(m.fullOutputPath, true) as string;
			break;
		default:
			break; // user, assistant and tool results pass as they are
	}
	return { source, escaped };
}

/**
 * pi's provider-ready message `llm` for its message `m`, with theway's
 * deliberate escaping applied: pi's own conversion of `m` with its session
 * text neutralised. Returns how many fields the escaping changed.
 */
function escapedLike(
	llm: LlmMessage,
	m: PiMessage,
	markers: readonly string[],
): { message: unknown; escaped: number } {
	const { source, escaped } = escapedSource(m, markers);
	if (escaped === 0) return { message: llm, escaped };
	const converted = (piConvertToLlm as (messages: unknown[]) => unknown[])([source]);
	return { message: JSON.parse(JSON.stringify(converted[0])), escaped };
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

/** The roles pi derives from an entry, timestamped with the entry's own `timestamp`. */
const DERIVED = new Set(["custom", "compactionSummary", "branchSummary"]);

/**
 * The times pi gives the entry timestamps theway refuses (the warned
 * `bad_timestamp`s: not an ISO 8601 date and time with an offset). pi reads
 * them with `new Date(t).getTime()`: a number for any form V8 parses (a
 * date alone, a local time, an RFC 2822 date), else NaN, `null` in JSON.
 */
function refusedTimes(bundle: ContextBundle): unknown[] {
	return bundle.meta.diagnostics
		.filter((d) => d.code === "bad_timestamp")
		.map((d) => {
			const quoted = /^timestamp (".*") is not ISO 8601/.exec(d.message)?.[1];
			expect(quoted, d.message).toBeDefined();
			const time = new Date(JSON.parse(quoted as string) as string).getTime();
			return Number.isNaN(time) ? null : time;
		});
}

/**
 * pi's form of a derived message whose entry's timestamp theway refuses
 * (with a warning, see {@link refusedTimes}): theway leaves the timestamp out.
 */
function withoutRefusedTime(
	piForm: unknown,
	mine: LlmMessage | undefined,
	source: PiMessage,
	refused: readonly unknown[],
): unknown {
	const m = piForm as Record<string, unknown>;
	if (!DERIVED.has(source.role) || mine === undefined || "timestamp" in mine) return piForm;
	if (!("timestamp" in m)) return piForm;
	expect(refused, "pi's timestamp comes from one theway refused").toContain(m.timestamp);
	const { timestamp: _, ...rest } = m;
	return rest;
}

/**
 * Our provider-ready messages, without theway's collapse summary: each one
 * left out is checked to come from a `compact_context` entry of the file.
 */
function ours(service: ContextService, bundle: ContextBundle, text: string): LlmMessage[] {
	// Each compact_context line's id, and the one version 1 gives it from its line (either may apply).
	const compactContexts = new Set<unknown>();
	text.split("\n").forEach((line, i) => {
		if (!line.includes('"compact_context"')) return;
		try {
			compactContexts.add((JSON.parse(line) as { id?: unknown }).id);
			compactContexts.add(v1EntryId(i + 1));
		} catch {
			// a malformed line: no entry
		}
	});
	const kept = bundle.messages.filter((m, i) => {
		if (m.role !== "collapse_context") return true;
		expect(compactContexts).toContain(bundle.entryIds[i]);
		return false;
	});
	const llm = service.convertToLlm({ ...bundle, messages: kept });
	return JSON.parse(JSON.stringify(llm)) as LlmMessage[];
}

/**
 * Asserts that `bundle` (loaded by `service` with `virtualize: false` from a
 * log holding `text`) gives the provider-ready messages pi gave
 * (`reference`), deliberate differences accounted for. Returns how many
 * session-text fields theway escaped.
 */
export function expectSameAsPi(
	service: ContextService,
	bundle: ContextBundle,
	text: string,
	reference: PiResult | undefined,
): { escaped: number } {
	expect(reference?.error, "pi failed to load it").toBeUndefined();
	const piMessages = reference?.messages as PiMessage[];
	const piLlm = reference?.llm as LlmMessage[];
	const mine = ours(service, bundle, text);
	expect(mine.map((m) => m.role)).toEqual(piLlm.map((m) => m.role));
	// pi's convertToLlm drops excluded bash executions and unknown roles: line its messages up with theway's.
	const sources = piMessages.filter(reachesModel);
	expect(sources).toHaveLength(piLlm.length);
	const markers = service.templateSet().markers;
	const set = service.templateSet(bundle.meta.templateVersion);
	const refused = refusedTimes(bundle);
	let escaped = 0;
	piLlm.forEach((message, i) => {
		const source = sources[i] as PiMessage;
		const expected = escapedLike(message, source, markers);
		escaped += expected.escaped;
		const framed = reworded(source, expected.message, set);
		expect(mine[i], `message ${i} (${source.role})`).toStrictEqual(
			withoutRefusedTime(framed, mine[i], source, refused),
		);
	});
	return { escaped };
}

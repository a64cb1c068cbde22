/**
 * Every command's ways to fail, run as the built CLI is run: an unknown
 * option (2), an input that is not there (1, or 2 where the input is a
 * folder option, which is usage), an input that is there but malformed
 * (1). The cases are keyed by the command list of the option layer, so a
 * new command fails here until its failures are written down. Each run's
 * exit code is checked, and every line of stderr is said in the one voice
 * (src/cli/voice.ts): a diagnostic led by the program's name, or what may
 * follow one (a code frame, a usage synopsis), or a line of the command's
 * own that carries no severity.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { PROGRAM } from "../../src/cli/voice.js";
import { type Run, runBuilt } from "../support/cli.js";
import { tempDir } from "../support/temp.js";
import { editLastLine, NEWEST, templateSet } from "../support/template-sets.js";

interface Case {
	/** What goes wrong. */
	what: string;
	args: string[];
	code: 1 | 2;
	/** What an error line of the run says (that it failed for this reason, not another). */
	says: RegExp;
	/** Standard input, for a command that reads it. */
	input?: string;
}

const MODEL = ["--model", "anthropic:claude-sonnet-4-5"];
const SIDES = ["--from", NEWEST, "--to", NEWEST];

/** A session (or source) that is not there, given with `more` arguments. */
const missing = (...more: string[]): Case => ({
	what: "a session that is not there",
	args: ["missing.jsonl", ...more],
	code: 1,
	says: /missing\.jsonl: error: /,
});
/** A session that is there but has no header. */
const headless = (...more: string[]): Case => ({
	what: "a session with no header",
	args: ["bad.jsonl", ...more],
	code: 1,
	says: /bad\.jsonl:1: error: /,
});
/** A templates folder that is not there: wrong usage. */
const noTemplates = (...more: string[]): Case => ({
	what: "a templates folder that is not there",
	args: [...more, "--templates", "missing"],
	code: 2,
	says: /error: --templates \S*missing: no such folder/,
});
/** A templates folder with no set in it. */
const emptyTemplates: Case = {
	what: "a templates folder with no set",
	args: ["--templates", "empty"],
	code: 1,
	says: /empty: error: /,
};
/** What a set whose system template does not parse is said at. */
const BROKEN = /broken\/v1\/system\.hbs:\d+:\d+: error: /;
/** A set whose system template does not parse. */
const brokenTemplates = (...more: string[]): Case => ({
	what: "a template that does not parse",
	args: [...more, "--templates", "broken"],
	code: 1,
	says: BROKEN,
});
/** A JSON file that does not parse, given to `option`. */
const badJson = (option: string, ...more: string[]): Case => ({
	what: `${option} with a file that is not JSON`,
	args: [...more, option, "bad.json"],
	code: 1,
	says: /bad\.json(:\d+)*: error: /,
});

/** Each command's failures past an unknown option (which every command gets, below). */
const FAILURES: Record<string, Case[]> = {
	render: [missing(), headless()],
	inspect: [missing(), headless()],
	diff: [
		missing(...SIDES),
		headless(...SIDES),
		{
			what: "a set on a side that does not build",
			args: ["bad.jsonl", "--from", "broken", "--to", NEWEST],
			code: 1,
			says: BROKEN,
		},
	],
	replay: [missing(), headless(), badJson("--prices", "bad.jsonl")],
	eval: [
		missing(...MODEL, "--dry-run"),
		headless(...MODEL, "--dry-run"),
		{
			what: "a model that names no provider",
			args: ["bad.jsonl", "--model", "x", "--dry-run"],
			code: 2,
			says: /"x"/,
		},
	],
	preview: [
		{ what: "a folder that is not there", args: ["missing"], code: 1, says: /missing: error: / },
		badJson("--eval", "."),
	],
	import: [missing(), { ...headless(), what: "a source of no known format" }],
	build: [noTemplates(), emptyTemplates, brokenTemplates()],
	serve: [noTemplates("--stdio"), brokenTemplates("--stdio")],
	lsp: [
		{ what: "no --stdio", args: [], code: 2, says: /--stdio/ },
		noTemplates("--stdio"),
		{
			what: "stdin that is not the protocol",
			args: ["--stdio"],
			code: 1,
			input: "garbage\r\n\r\n",
			says: /standard input ended/,
		},
	],
	"new-set": [noTemplates(), emptyTemplates],
};

/** A diagnostic: the program, a location or none, a severity, a message. */
const DIAGNOSTIC = new RegExp(`^${PROGRAM}: (.+: )?(error|warning): \\S`);
/** An error's line. */
const ERROR = new RegExp(`^${PROGRAM}: (.+: )?error: `);
/** A code frame's line, under a diagnostic. */
const FRAME = /^[> ] *\d* \| /;

/** The lines of `stderr` that are neither a diagnostic nor what may follow one, nor the command's own. */
function strayLines(command: string, run: Run): string[] {
	const lines = run.stderr.split("\n").filter((l) => l !== "");
	const stray: string[] = [];
	let synopsis = false;
	for (const line of lines) {
		if (DIAGNOSTIC.test(line)) {
			synopsis = run.code === 2;
			continue;
		}
		if (synopsis) {
			// A usage error's synopsis runs to its "--help for more" line.
			if (line === `(${PROGRAM} ${command} --help for more)`) synopsis = false;
			continue;
		}
		if (FRAME.test(line)) continue;
		const own = line.startsWith(`${command}: `) && !/^\S+: (.+: )?(error|warning): /.test(line);
		if (!own) stray.push(line);
	}
	return stray;
}

/** Every command's cases: an unknown option first, then its own. */
const CASES = COMMANDS.map(({ spec }) => ({
	command: spec.name,
	cases: [
		{ what: "an unknown option", args: ["--no-such-option"], code: 2, says: /--no-such-option/ },
		...(FAILURES[spec.name] ?? []),
	] satisfies Case[],
}));

/** Each case's run, keyed by command and case; all started at once, run a few at a time. */
const runs = new Map<string, Promise<Run>>();

beforeAll(() => {
	const dir = tempDir("theway-failures-");
	writeFileSync(join(dir, "bad.jsonl"), "not a session\n");
	writeFileSync(join(dir, "bad.json"), '{"x":');
	mkdirSync(join(dir, "empty"));
	const broken = templateSet({ "system.hbs": (text) => editLastLine(text, "{{#if}}") });
	cpSync(broken, join(dir, "broken"), { recursive: true });
	for (const { command, cases } of CASES)
		for (const c of cases)
			runs.set(
				`${command} ${c.what}`,
				runBuilt([command, ...c.args], { cwd: dir, input: c.input ?? "" }),
			);
});

describe("every command's failures", () => {
	it("are written down for every command the option layer has", () => {
		expect(Object.keys(FAILURES).sort()).toEqual(COMMANDS.map((c) => c.spec.name).sort());
	});

	for (const { command, cases } of CASES) {
		describe(command, () => {
			for (const c of cases) {
				it(`${c.what}: exit ${c.code}, said in the one voice`, async () => {
					const result = await (runs.get(`${command} ${c.what}`) as Promise<Run>);
					expect(result.code, result.stderr).toBe(c.code);
					const errors = result.stderr.split("\n").filter((l) => ERROR.test(l));
					expect(
						errors.some((l) => c.says.test(l)),
						result.stderr,
					).toBe(true);
					expect(strayLines(command, result), result.stderr).toEqual([]);
				});
			}
		});
	}
});

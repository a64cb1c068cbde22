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
/** What the error says, by the input it names. */
const MISSING = /missing\.jsonl: error: /;
const BAD = /bad\.jsonl:1: error: /;
const BROKEN = /broken\/v1\/system\.hbs:\d+:\d+: error: /;
const EMPTY = /empty: error: /;
const NO_FOLDER = /error: --templates \S*missing: no such folder/;
const SIDES = ["--from", NEWEST, "--to", NEWEST];

/** Each command's failures past an unknown option (which every command gets, below). */
const FAILURES: Record<string, Case[]> = {
	render: [
		{ what: "a session that is not there", args: ["missing.jsonl"], code: 1, says: MISSING },
		{ what: "a session with no header", args: ["bad.jsonl"], code: 1, says: BAD },
	],
	inspect: [
		{ what: "a session that is not there", args: ["missing.jsonl"], code: 1, says: MISSING },
		{ what: "a session with no header", args: ["bad.jsonl"], code: 1, says: BAD },
	],
	diff: [
		{
			what: "a session that is not there",
			args: ["missing.jsonl", ...SIDES],
			code: 1,
			says: MISSING,
		},
		{ what: "a session with no header", args: ["bad.jsonl", ...SIDES], code: 1, says: BAD },
		{
			what: "a set on a side that does not build",
			args: ["bad.jsonl", "--from", "broken", "--to", NEWEST],
			code: 1,
			says: BROKEN,
		},
	],
	replay: [
		{ what: "a session that is not there", args: ["missing.jsonl"], code: 1, says: MISSING },
		{ what: "a session with no header", args: ["bad.jsonl"], code: 1, says: BAD },
		{
			what: "a price table that is not JSON",
			args: ["bad.jsonl", "--prices", "bad.json"],
			code: 1,
			says: /bad\.json(:\d+)*: error: /,
		},
	],
	eval: [
		{
			what: "a session that is not there",
			args: ["missing.jsonl", ...MODEL, "--dry-run"],
			code: 1,
			says: MISSING,
		},
		{
			what: "a session with no header",
			args: ["bad.jsonl", ...MODEL, "--dry-run"],
			code: 1,
			says: BAD,
		},
		{
			what: "a model that names no provider",
			args: ["bad.jsonl", "--model", "x", "--dry-run"],
			code: 2,
			says: /"x"/,
		},
	],
	preview: [
		{ what: "a folder that is not there", args: ["missing"], code: 1, says: /missing: error: / },
		{
			what: "an eval report that is not JSON",
			args: [".", "--eval", "bad.json"],
			code: 1,
			says: /bad\.json: error: /,
		},
	],
	import: [
		{ what: "a source that is not there", args: ["missing.jsonl"], code: 1, says: MISSING },
		{ what: "a source of no known format", args: ["bad.jsonl"], code: 1, says: BAD },
	],
	build: [
		{
			what: "a templates folder that is not there",
			args: ["--templates", "missing"],
			code: 2,
			says: NO_FOLDER,
		},
		{
			what: "a templates folder with no set",
			args: ["--templates", "empty"],
			code: 1,
			says: EMPTY,
		},
		{
			what: "a template that does not parse",
			args: ["--templates", "broken"],
			code: 1,
			says: BROKEN,
		},
	],
	serve: [
		{
			what: "a templates folder that is not there",
			args: ["--stdio", "--templates", "missing"],
			code: 2,
			says: NO_FOLDER,
		},
		{
			what: "a template that does not parse",
			args: ["--stdio", "--templates", "broken"],
			code: 1,
			says: BROKEN,
		},
	],
	lsp: [
		{ what: "no --stdio", args: [], code: 2, says: /--stdio/ },
		{
			what: "a templates folder that is not there",
			args: ["--stdio", "--templates", "missing"],
			code: 2,
			says: NO_FOLDER,
		},
		{
			what: "stdin that is not the protocol",
			args: ["--stdio"],
			code: 1,
			input: "garbage\r\n\r\n",
			says: /standard input ended/,
		},
	],
	"new-set": [
		{
			what: "a templates folder that is not there",
			args: ["--templates", "missing"],
			code: 2,
			says: NO_FOLDER,
		},
		{
			what: "a templates folder with no set",
			args: ["--templates", "empty"],
			code: 1,
			says: EMPTY,
		},
	],
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

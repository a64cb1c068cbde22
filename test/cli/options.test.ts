/**
 * The option layer: a command's declaration is what it parses (values
 * checked and converted, every mistake a usage error naming the option),
 * what its `--help` says, and a shared option is one declaration on every
 * command that takes it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { commandHelp, wrap } from "../../src/cli/help.js";
import { CORPUS, STRICTNESS, TEMPLATES, TOOLS } from "../../src/cli/option-groups.js";
import { declareCommand, type OptionSpec, parseCommand } from "../../src/cli/options.js";
import { ContextError } from "../../src/errors.js";
import { tempDir } from "../support/temp.js";

/** A command of the test's own, with one option of each type. */
const SPEC = declareCommand({
	name: "probe",
	summary: "a command for the test",
	synopsis: "<file> [options]",
	args: { name: "<file>", count: "one" },
	description: "Probes the layer.",
	options: {
		mode: { type: "choice", choices: ["fast", "slow"], help: "how" },
		port: { type: "integer", value: "N", min: 0, max: 9, default: 4, help: "a port" },
		names: { type: "list", value: "a,b", help: "some names" },
		label: { type: "string", value: "TEXT", required: true, help: "a label" },
		loud: {
			type: "boolean",
			help: "louder",
			check: (v) => (v.mode === "slow" ? "--loud goes with --mode fast" : undefined),
		},
		...TEMPLATES,
		...STRICTNESS,
	},
});

function parse(args: string[], cwd = "/") {
	return parseCommand(SPEC, args, cwd);
}

/** The usage error parsing `args` gives, as its one line. */
function mistake(args: string[], cwd = "/"): string {
	try {
		parse(args, cwd);
	} catch (error) {
		expect(error).toBeInstanceOf(ContextError);
		expect((error as ContextError).code).toBe("usage");
		return (error as ContextError).reason;
	}
	throw new Error(`parsed without a mistake: ${args.join(" ")}`);
}

describe("parsing by the declaration", () => {
	it("gives each value converted, and the defaults", () => {
		const dir = tempDir("theway-options-");
		mkdirSync(join(dir, "sets"));
		const { values, positionals } = parse(
			["f", "--label", "x", "--names", "a, b,,c", "--templates", "sets", "--port", "7"],
			dir,
		);
		expect(positionals).toEqual(["f"]);
		expect(values).toEqual({
			mode: "fast",
			port: 7,
			names: ["a", "b", "c"],
			label: "x",
			loud: false,
			templates: join(dir, "sets"),
			strict: false,
			lenient: false,
			quiet: false,
		});
		expect(parse(["f", "--label", "x"]).values.port).toBe(4);
		expect(parse(["f", "--label", "x"]).values.templates).toBeUndefined();
	});

	it("refuses every mistake with a usage error naming the option", () => {
		const ok = ["f", "--label", "x"];
		expect(mistake(["f"])).toBe("--label is required");
		expect(mistake([...ok, "--mode", "slwo"])).toBe(
			"--mode must be fast or slow (did you mean slow?)",
		);
		expect(mistake([...ok, "--port", "10"])).toBe("--port must be a whole number from 0 to 9");
		expect(mistake([...ok, "--port", "1.5"])).toBe("--port must be a whole number from 0 to 9");
		expect(mistake([...ok, "--port", ""])).toBe("--port must be a whole number from 0 to 9");
		expect(mistake([...ok, "--templates", "nowhere"])).toBe("--templates /nowhere: no such folder");
		// An empty value: one left out by mistake (a path of "" would be the current folder).
		expect(mistake(["f", "--label", ""])).toBe("--label needs a value, not an empty one");
		expect(mistake([...ok, "--templates", ""])).toBe("--templates needs a value, not an empty one");
		// One value given twice: the first would be dropped without a word.
		expect(mistake([...ok, "--mode", "fast", "--mode=slow"])).toBe(
			'--mode given twice ("fast" and "slow"): give it once',
		);
		expect(mistake([...ok, "--label", "y"])).toBe(
			'--label given twice ("x" and "y"): give it once',
		);
		expect(parse([...ok, "--strict", "--strict"]).values.strict).toBe(true);
		expect(mistake([...ok, "--strict", "--lenient"])).toBe(
			"--strict and --lenient cannot go together: give one",
		);
		expect(mistake([...ok, "--mode", "slow", "--loud"])).toBe("--loud goes with --mode fast");
		expect(mistake([...ok, "--lable", "y"])).toBe(
			'unknown option --lable (did you mean --label?); a file whose name starts with "-" goes after "--"',
		);
		expect(mistake([...ok, "--label-file", "y"])).toBe(
			'unknown option --label-file (did you mean --label?); a file whose name starts with "-" goes after "--"',
		);
		expect(mistake([...ok, "--label"])).toBe("--label needs a value");
		expect(mistake([...ok, "--loud=yes"])).toBe("--loud takes no value");
		expect(mistake(["--label", "x"])).toBe("missing <file>");
		expect(mistake([...ok, "g"])).toBe("expected one <file>, got 2");
	});

	it("takes --help before anything else, checks and all", () => {
		expect(parse(["--help"]).help).toBe(true);
		expect(parse(["f", "--label", "x"]).help).toBe(false);
	});
});

describe("help from the declaration", () => {
	it("lists every option with its value, default and help, -h last", () => {
		const help = commandHelp(SPEC);
		expect(help.split("\n")[0]).toBe("Usage: theway-context probe <file> [options]");
		expect(help).toMatch(/\n {2}--mode fast\|slow +how \(default: fast\)\n/);
		expect(help).toMatch(/\n {2}--port N +a port \(default: 4\)\n/);
		expect(help).toMatch(/\n {2}--templates DIR +the templates folder \(default: the bundled/);
		expect(help.trimEnd().split("\n").at(-1)).toMatch(/^ {2}-h, --help +this help$/);
		for (const name of Object.keys(SPEC.options)) expect(help).toContain(`--${name}`);
	});

	it("wraps at the width, at spaces and at each line break", () => {
		expect(wrap("aa bb cc\ndd", 5)).toEqual(["aa bb", "cc", "dd"]);
	});
});

describe("the commands' declarations", () => {
	it("give a shared option one behaviour on every command that has it", () => {
		// What parses and checks an option; its words (and a command's extra check) may differ.
		const behaviour = (o: OptionSpec) => {
			const { help, defaultHelp, check, ...rest } = o;
			return JSON.stringify(rest);
		};
		const byName = new Map<string, Set<string>>();
		const ungrouped: string[] = [];
		for (const { spec } of COMMANDS) {
			for (const [name, o] of Object.entries(spec.options)) {
				if (o.group === undefined) ungrouped.push(`${spec.name} --${name}`);
				if (o.group === undefined || name === "format") continue; // --format's choices are per command
				byName.set(name, (byName.get(name) ?? new Set()).add(behaviour(o)));
			}
		}
		expect([...byName].filter(([, specs]) => specs.size > 1).map(([name]) => name)).toEqual([]);
		// A command does not declare a group's option its own way.
		expect(ungrouped.filter((o) => byName.has(o.split(" --")[1] as string))).toEqual([]);
		expect(byName.get("jobs")).toEqual(new Set([behaviour(CORPUS.jobs)]));
		expect(byName.get("templates")).toEqual(new Set([behaviour(TEMPLATES.templates)]));
		expect(byName.get("tools")).toEqual(new Set([behaviour(TOOLS.tools)]));
		expect(byName.size).toBeGreaterThan(8);
	});

	it("name each command once, with a summary and a description", () => {
		const names = COMMANDS.map((c) => c.spec.name);
		expect(new Set(names).size).toBe(names.length);
		for (const { spec } of COMMANDS) {
			expect(spec.summary, spec.name).not.toBe("");
			expect(spec.description, spec.name).not.toBe("");
		}
	});
});

/**
 * YAML 1.2 parsing with positions. Duplicate keys, unknown tags, aliases
 * that expand beyond reason and every other YAML error or warning fail with
 * the file, line and column, all of a file's problems at once; the slips of
 * a hand-written file (a key without its colon, a key indented under the one
 * before) in plain words at their line. A zod validation issue is located at
 * the node its path names, an unknown key at the key.
 *
 * The yaml package is loaded on the first parse: a command that reads no
 * YAML file (replay with the shipped tables) does not pay for it.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { LineCounter, YAMLError } from "yaml";
import { z } from "zod";
import { type AnyCode, ContextError, type Diagnostic, formatPath } from "../errors.js";
import { locateJsonError } from "../log/json-error.js";
import { didYouMean, flatten, memberOf } from "./zod-types.js";

export interface ParsedYaml {
	value: unknown;
	/**
	 * The 1-based line and column of the node at `path` (or the nearest
	 * parent); with `"key"`, of the key that names it, for what is wrong
	 * with the key itself.
	 */
	locate(path: readonly PropertyKey[], at?: "value" | "key"): { line: number; column: number };
}

let yamlPackage: typeof Yaml | undefined;

/** The yaml package, loaded once, when first needed. */
function yaml(): typeof Yaml {
	yamlPackage ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
	return yamlPackage;
}

/** How many alias expansions a file may make: plenty for data, far from a "billion laughs". */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses `text`, whose first line is line `firstLine` of `file`.
 * Only plain data: the core schema, no custom tags, no aliases' surprises.
 */
export function parseYaml(text: string, file: string, code: AnyCode, firstLine = 1): ParsedYaml {
	// A .json file that is no JSON is said in JSON's words, not in YAML's (its superset).
	if (file.endsWith(".json")) refuseBadJson(text, file, code, firstLine);
	const { isAlias, isMap, isNode, isScalar, parseDocument, visit } = yaml();
	const lineCounter = new (yaml().LineCounter)();
	const doc = parseDocument(text, {
		version: "1.2",
		schema: "core",
		uniqueKeys: true,
		strict: true,
		prettyErrors: false,
		lineCounter,
	});
	const at = (offset: number) => {
		const pos = lineCounter.linePos(offset);
		return { file, line: pos.line + firstLine - 1, column: pos.col };
	};
	const problems = [...doc.errors, ...doc.warnings].sort((a, b) => a.pos[0] - b.pos[0]);
	if (problems.length > 0) {
		const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
		// One slip can trip the parser twice: said once.
		const plain = new Map<string, Problem>();
		const quoted = quotedSpans(doc);
		for (const p of problems) {
			const { reason, offset } = unclosedQuote(p, quoted, text) ?? explain(p, lines, lineCounter);
			const where = at(offset);
			plain.set(`${where.line}:${where.column} ${reason}`, { reason, ...where });
		}
		throw located(code, [...plain.values()]);
	}
	let value: unknown;
	try {
		value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
	} catch (error) {
		// The yaml package refuses a resource-exhaustion attack with a bare ReferenceError.
		let first: number | undefined;
		visit(doc, {
			Alias(_, node) {
				if (isAlias(node) && node.range) first ??= node.range[0];
			},
		});
		const reason = /alias/i.test(String((error as Error)?.message))
			? `too many aliases: expanding them would take more than ${MAX_ALIAS_COUNT} copies (write the data out instead)`
			: `unreadable YAML: ${(error as Error)?.message ?? String(error)}`;
		throw located(code, [{ reason, ...at(first ?? 0) }], error);
	}
	return {
		value,
		locate(path, where = "value") {
			const parent = where === "key" ? doc.getIn(path.slice(0, -1) as unknown[], true) : undefined;
			const key = isMap(parent)
				? parent.items.find((pair) => isScalar(pair.key) && pair.key.value === path.at(-1))?.key
				: undefined;
			if (isNode(key) && key.range) {
				const pos = lineCounter.linePos(key.range[0]);
				return { line: pos.line + firstLine - 1, column: pos.col };
			}
			for (let n = path.length; n >= 0; n--) {
				const node = doc.getIn(path.slice(0, n) as unknown[], true);
				if (isNode(node) && node.range !== undefined && node.range !== null) {
					const pos = lineCounter.linePos(node.range[0]);
					return { line: pos.line + firstLine - 1, column: pos.col };
				}
			}
			return { line: firstLine, column: 1 };
		},
	};
}

/** A problem the caller found in parsed YAML, to be reported with the schema's own. */
export type YamlProblem = { reason: string; line: number; column: number };

/**
 * Validates parsed YAML; every issue becomes a located diagnostic of one
 * error, with the caller's own problems (`more`), all in line order.
 */
export function validateYaml<T extends z.ZodType>(
	schema: T,
	parsed: ParsedYaml,
	file: string,
	code: AnyCode,
	what: string,
	more: readonly YamlProblem[] = [],
): z.infer<T> {
	const result = schema.safeParse(parsed.value);
	const own = more.map((p) => ({ ...p, file }));
	if (result.success) {
		if (own.length > 0) throw located(code, own);
		return result.data;
	}
	const problems = result.error.issues.flatMap((issue) => {
		const where = issue.path.length === 0 ? "" : ` at ${formatPath(issue.path)}`;
		if (issue.code !== "unrecognized_keys") {
			return [
				{ reason: `invalid ${what}${where}: ${issue.message}`, file, ...parsed.locate(issue.path) },
			];
		}
		// Each unknown key where it stands, with the key meant or the keys there are.
		const allowed = keysAt(schema, issue.path);
		return issue.keys.map((key) => {
			const hint = didYouMean(key, allowed) || ` (allowed keys: ${allowed.join(", ")})`;
			const reason = `invalid ${what}${where}: unknown key ${JSON.stringify(key)}${hint}`;
			return { reason, file, ...parsed.locate([...issue.path, key], "key") };
		});
	});
	const byPlace = (a: Problem, b: Problem) => a.line - b.line || a.column - b.column;
	throw located(code, [...problems, ...own].sort(byPlace));
}

/** The keys the object at `path` of `schema` may have. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
	let alts = flatten(schema).alts;
	for (const step of path) {
		alts = alts.flatMap((s) => {
			const member = memberOf(s, String(step));
			return member === undefined ? [] : flatten(member).alts;
		});
	}
	return [...new Set(alts.flatMap((s) => (s instanceof z.ZodObject ? Object.keys(s.shape) : [])))];
}

/** The YAML parser's reports of a missing colon and of an indented key, which name neither. */
const NO_COLON = /^Implicit (map )?keys need/;
const INDENTED = new Set(["BLOCK_AS_IMPLICIT_KEY", "MULTILINE_IMPLICIT_KEY", "BAD_INDENT"]);
/** A line that holds a key: its indentation, the key, and what follows its colon. */
const KEY_LINE = /^( *)([^\s#\-[{"'][^:#]*?|"[^"]*"|'[^']*') *:(?:\s+(.*))?$/;
const BLANK = /^\s*(#.*)?$/;

/**
 * A YAML problem in plain words, at the line it is about: a key line
 * without its colon, or a key indented under a key whose value is on its own
 * line (the parser reads it as part of that value). Others as the parser
 * says, moved off a blank or comment line to the line after it.
 */
function explain(
	problem: YAMLError,
	lines: readonly string[],
	counter: LineCounter,
): { reason: string; offset: number } {
	let offset = problem.pos[0];
	let at = counter.linePos(offset).line - 1;
	if (BLANK.test(lines[at] ?? "") && contentLine(lines, at, 1) < lines.length) {
		at = contentLine(lines, at, 1);
		offset = counter.lineStarts[at] ?? offset;
	}
	const reason = problem.message.split("\n")[0] ?? problem.message;
	const text = lines[at] ?? "";
	const indent = text.length - text.trimStart().length;
	const atKey = offset - (counter.lineStarts[at] ?? 0) <= indent;
	const name = /^[^\s:#\-?[{"'][^\s:]*/.exec(text.trimStart())?.[0];
	if (NO_COLON.test(reason) && atKey && name !== undefined && !/:(\s|$)/.test(text)) {
		return { reason: `missing ":" after ${JSON.stringify(name)}`, offset };
	}
	// A first key indented: the parser stumbles on the lines after it.
	const first = contentLine(lines, 0, 1);
	const top = KEY_LINE.exec(lines[first] ?? "");
	if (problem.code === "UNEXPECTED_TOKEN" && at > first && (top?.[1]?.length ?? 0) > indent) {
		return indented(counter, first, top as RegExpExecArray);
	}
	if (!INDENTED.has(problem.code)) return { reason, offset };
	// The indented line: the one after a value the parser took it to continue, the problem's own otherwise.
	const lower = atKey ? at : contentLine(lines, at + 1, 1);
	const below = KEY_LINE.exec(lines[lower] ?? "");
	const above = KEY_LINE.exec(lines[contentLine(lines, lower - 1, -1)] ?? "");
	if (!above?.[3] || below === null || (below[1]?.length ?? 0) <= (above[1]?.length ?? 0)) {
		return { reason, offset };
	}
	return indented(counter, lower, below, above);
}

/** Where each quoted scalar of `doc` starts and ends (an unclosed one ends where the parser gave up). */
function quotedSpans(doc: ReturnType<typeof Yaml.parseDocument>): [number, number][] {
	const spans: [number, number][] = [];
	yaml().visit(doc, {
		Scalar(_, node) {
			const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE";
			if (quoted && node.range) spans.push([node.range[0], node.range[1]]);
		},
	});
	return spans;
}

/**
 * A quote never closed: the parser says so where the text ran out, often
 * lines below; said at the quote that opened it.
 */
function unclosedQuote(
	problem: YAMLError,
	quoted: readonly [number, number][],
	text: string,
): { reason: string; offset: number } | undefined {
	if (problem.code !== "MISSING_CHAR" || !/^Missing closing/.test(problem.message))
		return undefined;
	const at = problem.pos[0];
	const span = quoted.find(([start, end]) => start <= at && at <= end);
	if (span === undefined) return undefined;
	const quote = text[span[0]] ?? '"';
	const reason = `the ${quote} opened here is never closed`;
	return { reason, offset: span[0] };
}

/** Key line `line` (0-based) is indented more than the key `above` it, or than none. */
function indented(
	counter: LineCounter,
	line: number,
	key: RegExpExecArray,
	above?: RegExpExecArray,
): { reason: string; offset: number } {
	const column = (above?.[1]?.length ?? 0) + 1;
	const reason =
		column === 1
			? `${keyName(key[2])} is indented: top-level keys start at column 1`
			: `${keyName(key[2])} is indented more than ${keyName(above?.[2])} above it (column ${column})`;
	return { reason, offset: (counter.lineStarts[line] ?? 0) + (key[1]?.length ?? 0) };
}

/** The index of the first line from `from`, going by `step`, that is neither blank nor a comment. */
function contentLine(lines: readonly string[], from: number, step: 1 | -1): number {
	let i = from;
	while (i >= 0 && i < lines.length && BLANK.test(lines[i] ?? "")) i += step;
	return i;
}

/** A key as written, quoted for a message. */
function keyName(key: string | undefined): string {
	return JSON.stringify((key ?? "").replace(/^(["'])(.*)\1$/, "$2"));
}

type Problem = { reason: string; file: string; line: number; column: number };

/** One error for a file's problems: the first as its message, all as its diagnostics. */
function located(code: AnyCode, problems: readonly Problem[], cause?: unknown): ContextError {
	const [first, ...rest] = problems as [Problem, ...Problem[]];
	const diagnostics: Diagnostic[] = problems.map(({ reason, ...where }) => ({
		severity: "error",
		code,
		message: reason,
		...where,
	}));
	const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
	return new ContextError(code, `${first.reason}${more}`, first, {
		diagnostics,
		...(cause === undefined ? {} : { cause }),
	});
}

/** Throws `code` at the first fault of `text` when it is not JSON. */
function refuseBadJson(text: string, file: string, code: AnyCode, firstLine: number): void {
	try {
		JSON.parse(text);
		return;
	} catch {
		const { column, reason } = locateJsonError(text);
		const before = text.slice(0, column - 1);
		const line = before.split("\n").length;
		const col = column - (before.lastIndexOf("\n") + 1);
		const said = reason.replace(/^the line ends/, "the file ends");
		throw located(code, [
			{ reason: `not valid JSON: ${said}`, file, line: line + firstLine - 1, column: col },
		]);
	}
}

/**
 * Static type checking of Handlebars templates against zod view-model schemas.
 *
 * Each template is parsed (never compiled) and its syntax tree walked with a model of
 * Handlebars' context stack, so a typo, a field that may be absent without a guard, an object
 * printed as text or a wrong helper argument is found when templates load, not in a prompt.
 */
import Handlebars from "handlebars";
import type { z } from "zod";
import type { Diagnostic } from "../errors.js";
import { parseHint } from "./parse-hint.js";
import type { HelperSignature, Parsed, Pos, TemplateSource } from "./typecheck-scope.js";
import { value } from "./typecheck-scope.js";
import { Checker } from "./typecheck-walk.js";
import { flatten } from "./zod-types.js";

export type { HelperSignature, ParamKind, TemplateSource } from "./typecheck-scope.js";

/**
 * A Handlebars parse error's body position (0-based column) and reason. Errors raised from a
 * node carry `lineNumber`/`column`; the parser's own only say "Parse error on line N:" above
 * an excerpt that ends, at the caret, with the text before the failing token.
 */
function parseErrorAt(err: unknown, lines: readonly string[]): Pos & { reason: string } {
	const e = (err ?? {}) as { message?: unknown; lineNumber?: unknown; column?: unknown };
	const message = String(e.message ?? err);
	const m = /^Parse error on line (\d+):\n(.*)\n(-*)\^\n(.*)/.exec(message);
	if (typeof e.lineNumber === "number" || m === null) {
		const line = typeof e.lineNumber === "number" ? e.lineNumber : 1;
		const column = typeof e.column === "number" ? e.column : 0;
		return { line, column, reason: message.replace(/ - \d+:\d+$/, "") };
	}
	const [, line = "1", excerpt = "", dashes = "", reason = ""] = m;
	const before = excerpt.slice(0, dashes.length).replace(/^\.\.\./, "");
	const text = lines[Number(line) - 1] ?? "";
	let column = before === "" ? 0 : text.length;
	while (
		column > 0 &&
		!before.endsWith(text.slice(0, column)) &&
		!text.slice(0, column).endsWith(before)
	) {
		column--;
	}
	return { line: Number(line), column, reason };
}

type Callee = { path: hbs.AST.Expression };

/**
 * Rewrites a literal where a helper or a value is named (`{{"hello"}}`, `{{1}}`,
 * `{{#"if" x}}`) as the path Handlebars makes of it: a lookup of the literal's
 * text on the current context, or a call of the helper so named.
 */
function literalsAsPaths(program: hbs.AST.Program | undefined): void {
	const visit = (node: unknown): void => {
		if (node === null || typeof node !== "object") return;
		if (Array.isArray(node)) {
			for (const n of node) visit(n);
			return;
		}
		const n = node as { type?: unknown } & Record<string, unknown>;
		if (
			n.type === "MustacheStatement" ||
			n.type === "BlockStatement" ||
			n.type === "SubExpression"
		) {
			const call = n as unknown as Callee;
			const path = call.path as { type: string; original?: unknown; loc: hbs.AST.SourceLocation };
			if (path.type !== "PathExpression" && path.type !== "SubExpression") {
				const text = `${path.original}`;
				call.path = {
					type: "PathExpression",
					data: false,
					depth: 0,
					parts: [text],
					original: `[${text}]`,
					loc: path.loc,
				} as hbs.AST.PathExpression;
			}
		}
		for (const key of ["params", "hash", "pairs", "value", "program", "inverse", "body", "path"]) {
			if (key in n) visit(n[key]);
		}
	};
	visit(program);
}

/** Reports every partial cycle once, at the `{{> name}}` that closes it. */
function findCycles(
	checker: Checker,
	parsed: ReadonlyMap<string, Parsed>,
	calls: ReadonlyMap<string, { to: string; at: Pos }[]>,
): void {
	const state = new Map<string, "open" | "done">();
	const chain: string[] = [];
	const visit = (name: string): void => {
		state.set(name, "open");
		chain.push(name);
		for (const call of calls.get(name) ?? []) {
			const tpl = parsed.get(name);
			if (state.get(call.to) === "open" && tpl !== undefined) {
				const cycle = [...chain.slice(chain.indexOf(call.to)), call.to].join(" → ");
				checker.report(tpl, call.at, `partial cycle: ${cycle}`, "partial_cycle");
			} else if (!state.has(call.to)) visit(call.to);
		}
		chain.pop();
		state.set(name, "done");
	};
	for (const name of parsed.keys()) if (!state.has(name)) visit(name);
}

/**
 * Type-checks a template set: every root against its schema, and every partial with the
 * context of each of its call sites. Returns all findings (severity "error"), sorted by file,
 * line and column; an empty array means the set is sound. Never throws on a bad template.
 */
export function typecheckTemplates(input: {
	templates: readonly TemplateSource[];
	/** Templates rendered directly, with the schema of the data they get. Others are partials. */
	roots: ReadonlyMap<string, z.ZodType>;
	helpers: Readonly<Record<string, HelperSignature>>;
	/** Templates of the set that could not be read (their errors are reported): calls to them are not. */
	unreadable?: ReadonlySet<string>;
	/** Parses a body (default: Handlebars'); the same tree may come back for the same body. */
	parse?: ((body: string) => hbs.AST.Program) | undefined;
}): Diagnostic[] {
	const parsed = new Map<string, Parsed>();
	for (const src of input.templates) {
		if (!parsed.has(src.name))
			parsed.set(src.name, { src, ast: undefined, bodyLines: src.body.split(/\r?\n/) });
	}
	const checker = new Checker(parsed, input.helpers, input.unreadable);
	const calls = new Map<string, { to: string; at: Pos }[]>();
	for (const [name, tpl] of parsed) {
		try {
			tpl.ast = (input.parse ?? Handlebars.parse)(tpl.src.body);
		} catch (err) {
			// The tag at fault when a scan of the tags finds it, else Handlebars' own words.
			const hint = parseHint(tpl.src.body, tpl.src.bodyLine);
			const { reason, ...at } = hint ?? parseErrorAt(err, tpl.bodyLines);
			const message = hint === undefined ? `Handlebars parse error: ${reason}` : reason;
			checker.report(tpl, at, message, "bad_template");
			continue;
		}
		literalsAsPaths(tpl.ast);
		calls.set(name, []);
		checker.scan(tpl, tpl.ast, calls.get(name) ?? []);
	}
	findCycles(checker, parsed, calls);
	for (const [name, schema] of input.roots) {
		const tpl = parsed.get(name);
		if (tpl?.ast === undefined) continue;
		const stack = [value(flatten(schema).alts, "")];
		checker.program(tpl.ast, { tpl, stack, params: new Map(), eachDepth: 0, facts: new Set() });
	}
	const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
	return [...checker.found.values()].sort(
		(a, b) =>
			cmp(a.file ?? "", b.file ?? "") ||
			cmp(a.line ?? 0, b.line ?? 0) ||
			cmp(a.column ?? 0, b.column ?? 0),
	);
}

/**
 * Static type checking of Handlebars templates against zod view-model schemas.
 *
 * Each template is parsed (never compiled) and its syntax tree walked with a model of
 * Handlebars' context stack, so a typo, a field that may be absent without a guard, an object
 * printed as text or a wrong helper argument is found when templates load, not in a prompt.
 */
import Handlebars from "handlebars";
import { z } from "zod";
import { codeFrame, type Diagnostic, type ErrorCode } from "../errors.js";
import {
	ANY,
	BOOLEAN,
	describeValue,
	didYouMean,
	flatten,
	type Kind,
	kindsOf,
	memberOf,
	NUMBER,
	type Schema,
	STRING,
} from "./zod-types.js";

/** One template of a set, as loaded from disk. */
export interface TemplateSource {
	/** The template's name, as used in `{{> name}}`. */
	name: string;
	/** Path shown in diagnostics. */
	file: string;
	/** The Handlebars text (the file after its front-matter). */
	body: string;
	/** 1-based line of the file on which `body` starts. */
	bodyLine: number;
	/** Whole file text, for code frames (the body is used when absent). */
	fileText?: string;
}

/** A helper's parameter kinds, checked at every call. */
export interface HelperSignature {
	params: readonly ("string" | "number" | "boolean" | "array" | "any")[];
	/** How many trailing params may be left out. */
	optionalParams?: number;
	returns: "string" | "boolean" | "any";
}

type Expr = hbs.AST.Expression;
type Path = hbs.AST.PathExpression;
type Pos = hbs.AST.Position;
type Call = { path: Expr; params: Expr[]; hash?: hbs.AST.Hash };

/**
 * What an expression may evaluate to: its possible schemas (unions flattened), whether it may
 * be absent despite the guards in force (`absentAt`: the first such prefix, as written), and
 * the absolute `key` of its path, under which `#if` records guard facts.
 */
interface Value {
	alts: readonly Schema[];
	absent: boolean;
	absentAt: string | undefined;
	key: string | undefined;
}

interface Parsed {
	src: TemplateSource;
	ast: hbs.AST.Program | undefined;
	bodyLines: readonly string[];
}

interface Scope {
	tpl: Parsed;
	/** The context stack, root first: each `../` goes one frame down. */
	stack: readonly Value[];
	/** Block params (`as |item i|`) in scope; partials do not see them. */
	params: ReadonlyMap<string, Value>;
	/** How many `#each` blocks enclose this point (`@index` and friends need one). */
	eachDepth: number;
	/** Keys of the paths an enclosing guard proved present. */
	facts: ReadonlySet<string>;
}

const BLOCKS = ["if", "unless", "each", "with"];
const NOT_ALLOWED = ["lookup", "log"]; // built-ins whose result has no static type, or no text
const SEP = "\u0000"; // joins key segments; no field name written in a template contains it
const SCOPED = /^(\.|this\b)/; // `this.x` and `./x` skip helpers and block params
const RETURNS = { string: STRING, boolean: BOOLEAN, any: ANY };
const LITERALS: Record<string, Schema> = {
	StringLiteral: STRING,
	NumberLiteral: NUMBER,
	BooleanLiteral: BOOLEAN,
};
const DATA: Record<string, Schema> = { index: NUMBER, key: NUMBER, first: BOOLEAN, last: BOOLEAN };

function value(alts: readonly Schema[], key?: string): Value {
	return { alts, absent: false, absentAt: undefined, key };
}

/** Whether every alternative of `v` is of one of `kinds` (anything goes for `z.any()`). */
function fits(v: Value, kinds: readonly Kind[]): boolean {
	return v.alts.every((a) => kindsOf(a).every((k) => k === "any" || kinds.includes(k)));
}

function absentMessage(e: Expr, v: Value): string {
	const text = e.type === "PathExpression" ? pathText(e as Path) : shown(e);
	const at = v.absentAt ?? text;
	const lead = at === text ? "" : `"${text}": `;
	return `${lead}"${at}" may be absent (${describeValue(v)}); guard it with {{#if ${at}}}`;
}

/** A path as it can be written back, cut after its first `n` parts. */
function pathText(p: Path, n = p.parts.length): string {
	const head = p.data ? "@" : `${"../".repeat(p.depth)}${SCOPED.test(p.original) ? "this." : ""}`;
	const segments = p.parts.slice(0, n).map((s) => (/^[A-Za-z_$][\w$-]*$/.test(s) ? s : `[${s}]`));
	return `${head}${segments.join(".")}`.replace(/^this\.$/, "this");
}

/** How an expression reads in a message: `"a.b"`, `"text"`, `3`, `(join …)`. */
function shown(e: Expr): string {
	if (e.type === "PathExpression") return `"${pathText(e as Path)}"`;
	if (e.type === "SubExpression") return `(${pathText((e as hbs.AST.SubExpression).path)} …)`;
	const literal = (e as Partial<hbs.AST.StringLiteral>).value;
	return literal === undefined
		? e.type.replace("Literal", "").toLowerCase()
		: JSON.stringify(literal);
}

/** The name of a helper-like path (`join`; not `a.b`, `this.x`, `../x` or `@x`). */
function simpleName(e: Expr): string | undefined {
	const p = e as Path;
	const simple = e.type === "PathExpression" && !p.data && p.depth === 0 && p.parts.length === 1;
	return simple && !SCOPED.test(p.original) ? p.parts[0] : undefined;
}

/** The static name of `{{> name}}`, or undefined for a dynamic `{{> (expr)}}`. */
function partialName(
	p: hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement,
): string | undefined {
	const n = p.name as Expr;
	if (n.type === "PathExpression") return (n as Path).original;
	return n.type === "SubExpression" ? undefined : String((n as hbs.AST.StringLiteral).value);
}

/** Adds `key` and every prefix of it (if `a.b` is truthy, `a` is there too). */
function withPrefixes(facts: ReadonlySet<string>, key: string): Set<string> {
	const out = new Set(facts);
	const parts = key.split(SEP);
	for (let n = 1; n <= parts.length; n++) out.add(parts.slice(0, n).join(SEP));
	return out;
}

/** The file's line with a one-line lead-in and a caret under the column. */
function frameOf(src: TemplateSource, line: number, column: number): string | undefined {
	if (src.fileText !== undefined) return codeFrame(src.fileText, line, column);
	// Only the body is known: pad it so that its lines keep their file numbers.
	return codeFrame("\n".repeat(src.bodyLine - 1) + src.body, line, column);
}

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

/** The walk over templates: context stack, guards, helpers and partials. */
class Checker {
	readonly found = new Map<string, Diagnostic>();
	private readonly checked = new Set<string>(); // (partial, context) pairs already walked
	private readonly active: string[] = []; // partials being walked, to stop at cycles
	private readonly ids = new Map<Schema, number>();
	private fresh = 0;

	constructor(
		private readonly templates: ReadonlyMap<string, Parsed>,
		private readonly helpers: Readonly<Record<string, HelperSignature>>,
	) {}

	report(tpl: Parsed, at: Pos, message: string, code: ErrorCode = "template_type"): void {
		const [file, line, column] = [tpl.src.file, at.line + tpl.src.bodyLine - 1, at.column + 1];
		const d: Diagnostic = { severity: "error", code, message, file, line, column };
		const frame = frameOf(tpl.src, line, column);
		if (frame !== undefined) d.frame = frame;
		this.found.set(`${file}:${line}:${column}:${code}:${message}`, d);
	}

	private fail(scope: Scope, at: Pos, message: string, code: ErrorCode = "template_type"): void {
		this.report(scope.tpl, at, message, code);
	}

	/** Partial names and unsupported forms, for every parsed template; collects partial calls. */
	scan(tpl: Parsed, program: hbs.AST.Program | undefined, calls: { to: string; at: Pos }[]): void {
		for (const s of program?.body ?? []) {
			const at = s.loc.start;
			if (s.type === "PartialBlockStatement") {
				this.report(tpl, at, "partial blocks ({{#> name}}) are not supported", "unknown_partial");
			} else if (s.type === "Decorator" || s.type === "DecoratorBlock") {
				this.report(tpl, at, "decorators and inline partials are not supported", "unknown_helper");
			} else if (s.type === "PartialStatement") {
				const name = partialName(s as hbs.AST.PartialStatement);
				if (name !== undefined && this.templates.has(name)) calls.push({ to: name, at });
				else {
					const message =
						name === undefined
							? "dynamic partials ({{> (expr)}}) are not supported: name the partial"
							: `unknown partial "${name}"${didYouMean(name, this.templates.keys())}`;
					this.report(tpl, at, message, "unknown_partial");
				}
			} else if (s.type === "BlockStatement") {
				this.scan(tpl, (s as hbs.AST.BlockStatement).program, calls);
				this.scan(tpl, (s as hbs.AST.BlockStatement).inverse, calls);
			}
		}
	}

	program(program: hbs.AST.Program | undefined, scope: Scope): void {
		for (const s of program?.body ?? []) {
			if (s.type === "MustacheStatement") this.mustache(s as hbs.AST.MustacheStatement, scope);
			else if (s.type === "BlockStatement") this.block(s as hbs.AST.BlockStatement, scope);
			else if (s.type === "PartialStatement") this.partial(s as hbs.AST.PartialStatement, scope);
		}
	}

	private mustache(m: hbs.AST.MustacheStatement, scope: Scope): void {
		const name = simpleName(m.path);
		// Handlebars calls a helper when there are arguments, or when the bare name is a helper.
		const builtin = [...BLOCKS, ...NOT_ALLOWED];
		const known =
			name !== undefined && (Object.hasOwn(this.helpers, name) || builtin.includes(name));
		const isCall = m.params.length > 0 || (m.hash?.pairs.length ?? 0) > 0 || known;
		if (!isCall && m.path.type !== "PathExpression") return; // `{{"text"}}`: a literal
		const v = isCall ? this.call(m, scope) : this.path(m.path as Path, scope);
		const [text, at] = [shown(m.path), m.path.loc.start];
		if (v?.absent) this.fail(scope, at, absentMessage(m.path, v));
		else if (v !== undefined && !fits(v, ["string", "number", "boolean"])) {
			const what = `${text} is ${describeValue(v)}`;
			this.fail(scope, at, `${what}: only strings, numbers, booleans and enums can be printed`);
		}
	}

	private block(b: hbs.AST.BlockStatement, scope: Scope): void {
		const name = simpleName(b.path);
		const start = b.loc.start;
		const raw = scope.tpl.bodyLines[start.line - 1]?.startsWith("{{{{", start.column) === true;
		if (name !== undefined && BLOCKS.includes(name) && !raw) {
			this.builtin(name, b, scope);
			return;
		}
		if (name !== undefined && Object.hasOwn(this.helpers, name)) this.call(b, scope);
		else {
			const hint = didYouMean(b.path.original, [...Object.keys(this.helpers), ...BLOCKS]);
			const section = b.params.length > 0 || raw ? "" : "; use #if, #each or #with for a section";
			const message = `unknown block helper "${b.path.original}"${hint}${section}`;
			this.fail(scope, b.path.loc.start, message, "unknown_helper");
			for (const p of b.params) this.expr(p, scope);
		}
		if (raw) return; // a raw block's content is text
		// A custom block helper: assume it renders its blocks in the current context.
		const params = new Map(scope.params);
		for (const p of b.program?.blockParams ?? []) params.set(p, value([ANY]));
		this.program(b.program, { ...scope, params });
		this.program(b.inverse, scope);
	}

	/** `#if`, `#unless`, `#each`, `#with`: all skip an absent value, so they guard its branch. */
	private builtin(name: string, b: hbs.AST.BlockStatement, scope: Scope): void {
		for (const pair of b.hash?.pairs ?? []) this.expr(pair.value, scope);
		if (b.params.length !== 1) {
			this.fail(scope, b.path.loc.start, `#${name} takes 1 argument, got ${b.params.length}`);
		}
		const arg = b.params[0];
		const v = arg === undefined ? undefined : this.expr(arg, scope);
		const key = v?.key ?? `#${this.fresh++}`;
		const guarded: Scope = { ...scope, facts: withPrefixes(scope.facts, key) };
		if (name === "if" || name === "unless") {
			this.program(b.program, name === "if" ? guarded : scope);
			this.program(b.inverse, name === "if" ? scope : guarded);
			return;
		}
		let frames: Value[] = [{ ...(v ?? value([ANY])), absent: false, absentAt: undefined, key }];
		if (name === "each" && v !== undefined && arg !== undefined) {
			frames = [this.element(v, arg, key, scope), value([NUMBER])];
		}
		const params = new Map(scope.params);
		for (const [i, p] of (b.program?.blockParams ?? []).entries()) {
			params.set(p, frames[i] ?? value([ANY]));
		}
		const stack = [...scope.stack, frames[0] ?? value([ANY])];
		const eachDepth = scope.eachDepth + (name === "each" ? 1 : 0);
		this.program(b.program, { ...guarded, stack, params, eachDepth });
		this.program(b.inverse, scope);
	}

	/** The element of what `#each` iterates; an absent array is fine (it renders nothing). */
	private element(v: Value, arg: Expr, key: string, scope: Scope): Value {
		const arrays = v.alts.filter((a) => a instanceof z.ZodArray || kindsOf(a).includes("any"));
		if (arrays.length === 0 || arrays.length < v.alts.length) {
			const message = `#each needs an array, but ${shown(arg)} is ${describeValue(v)}`;
			this.fail(scope, arg.loc.start, message);
			return value([ANY], `${key}${SEP}[]`); // go on without cascading errors
		}
		const items = arrays.map((a) => flatten(a instanceof z.ZodArray ? (a.element as Schema) : ANY));
		const absent = items.some((e) => e.absent);
		const alts = items.flatMap((e) => e.alts);
		return { alts, absent, absentAt: absent ? "this" : undefined, key: `${key}${SEP}[]` };
	}

	/** Walks a partial's body with the caller's context stack, once per distinct context. */
	private partial(p: hbs.AST.PartialStatement, scope: Scope): void {
		const name = partialName(p);
		const target = name === undefined ? undefined : this.templates.get(name);
		if (name === undefined || target?.ast === undefined) return; // reported by scan()
		let stack = scope.stack;
		const [arg, ...more] = p.params;
		if (more.length > 0)
			this.fail(scope, p.loc.start, "a partial takes at most one context argument");
		if (arg !== undefined) {
			const v = this.expr(arg, scope);
			if (v?.absent) this.fail(scope, arg.loc.start, absentMessage(arg, v));
			stack = [
				...stack,
				{ ...(v ?? value([ANY])), absent: false, key: v?.key ?? `#${this.fresh++}` },
			];
		}
		const top = stack[stack.length - 1];
		if ((p.hash?.pairs.length ?? 0) > 0 && top !== undefined) {
			// Handlebars renders the partial with a copy of the context plus the hash fields.
			const extra: Record<string, Schema> = {};
			for (const pair of p.hash.pairs) {
				const v = this.expr(pair.value, scope) ?? value([ANY]);
				const [one = z.undefined(), ...others] = v.alts;
				const s = others.length > 0 ? z.union(v.alts as [Schema, ...Schema[]]) : one;
				extra[pair.key] = v.absent ? s.optional() : s;
			}
			const merge = (a: Schema) =>
				kindsOf(a).includes("any")
					? a
					: z.object({ ...(a instanceof z.ZodObject ? a.shape : {}), ...extra });
			stack = [
				...stack,
				{ ...top, alts: top.alts.length > 0 ? top.alts.map(merge) : [z.object(extra)] },
			];
		}
		if (this.active.includes(name)) return; // a cycle, reported once by findCycles()
		const id = (s: Schema) => this.ids.get(s) ?? this.ids.set(s, this.ids.size).size - 1;
		const frames = stack.map((f) => `${f.key}:${f.absent}:${f.alts.map(id).join(",")}`);
		const memo = [name, ...frames, scope.eachDepth, ...[...scope.facts].sort()].join("\n");
		if (this.checked.has(memo)) return;
		this.checked.add(memo);
		this.active.push(name);
		this.program(target.ast, { ...scope, tpl: target, stack, params: new Map() });
		this.active.pop();
	}

	private expr(e: Expr, scope: Scope): Value | undefined {
		if (e.type === "PathExpression") return this.path(e as Path, scope);
		if (e.type === "SubExpression") return this.call(e as hbs.AST.SubExpression, scope);
		const literal = LITERALS[e.type];
		return literal ? value([literal]) : { ...value([]), absent: true, absentAt: "undefined" };
	}

	/** A helper call: checks its name, arity and argument kinds; yields its declared return kind. */
	private call(c: Call, scope: Scope): Value | undefined {
		const name = simpleName(c.path);
		const args = c.params.map((p) => this.expr(p, scope));
		for (const pair of c.hash?.pairs ?? []) this.expr(pair.value, scope);
		const [tpl, at] = [scope.tpl, c.path.loc.start];
		if (name !== undefined && BLOCKS.includes(name)) {
			this.report(tpl, at, `"${name}" is a block helper: use {{#${name} …}}…{{/${name}}}`);
			return undefined;
		}
		const sig =
			name !== undefined && Object.hasOwn(this.helpers, name) ? this.helpers[name] : undefined;
		if (sig === undefined) {
			const called = name ?? shown(c.path).replace(/^"|"$/g, "");
			const hint = NOT_ALLOWED.includes(called)
				? ` (${called} is not allowed: it cannot be type-checked)`
				: didYouMean(called, [...Object.keys(this.helpers), ...BLOCKS]);
			this.report(tpl, at, `unknown helper "${called}"${hint}`, "unknown_helper");
			return undefined;
		}
		const [max, min] = [sig.params.length, sig.params.length - (sig.optionalParams ?? 0)];
		if (args.length < min || args.length > max) {
			const range = `${min === max ? "" : `${min} to `}${max} argument${max === 1 ? "" : "s"}`;
			this.report(tpl, at, `${name} takes ${range}, got ${args.length}`);
		}
		for (const [i, v] of args.entries()) {
			const [want, node] = [sig.params[i], c.params[i]];
			if (v === undefined || node === undefined || want === undefined || want === "any") continue;
			const where = `argument ${i + 1} of ${name}`;
			if (v.absent && v.alts.length > 0)
				this.report(tpl, node.loc.start, `${where}: ${absentMessage(node, v)}`);
			else if (v.absent || !fits(v, [want])) {
				this.report(
					tpl,
					node.loc.start,
					`${where} must be ${want}, but ${shown(node)} is ${describeValue(v)}`,
				);
			}
		}
		return value([RETURNS[sig.returns]]);
	}

	/** Resolves a path against the context stack, block params and `@data` variables. */
	private path(p: Path, scope: Scope): Value | undefined {
		const head = p.parts[0] ?? "";
		let v: Value | undefined;
		let [from, hints] = [1, [] as string[]];
		if (p.data) {
			const data = DATA[head];
			if (head === "root") v = scope.stack[0];
			else if (data === undefined) {
				const hint = didYouMean(head, ["root", ...Object.keys(DATA)]);
				this.fail(scope, p.loc.start, `unknown data variable "@${head}"${hint}`);
			} else if (scope.eachDepth <= p.depth) {
				this.fail(scope, p.loc.start, `@${head} is only defined inside {{#each}}`);
			} else v = value([data]);
		} else if (!SCOPED.test(p.original) && p.depth === 0 && scope.params.has(head)) {
			v = scope.params.get(head);
		} else {
			from = 0;
			v = scope.stack[scope.stack.length - 1 - p.depth];
			if (v === undefined) {
				const levels = `${p.depth} level${p.depth === 1 ? "" : "s"}`;
				this.fail(scope, p.loc.start, `"${p.original}" goes ${levels} up, past the root context`);
			}
			if (p.depth === 0 && !SCOPED.test(p.original)) hints = [...scope.params.keys()];
		}
		for (let i = from; i < p.parts.length && v !== undefined; i++) {
			v = this.step(
				v,
				p.parts[i] ?? "",
				pathText(p, i + 1),
				p.loc.start,
				scope,
				i === 0 ? hints : [],
			);
		}
		return v;
	}

	/** One `.name` step; reports (yielding undefined) when no alternative has the field. */
	private step(
		v: Value,
		name: string,
		text: string,
		at: Pos,
		scope: Scope,
		hints: string[] = [],
	): Value | undefined {
		const members = v.alts.map((a) => memberOf(a, name));
		const found = members.filter((m) => m !== undefined).map(flatten);
		if (found.length === 0) {
			const fields = v.alts.flatMap((a) => (a instanceof z.ZodObject ? Object.keys(a.shape) : []));
			const hint = didYouMean(name, [...fields, ...hints]);
			const type = describeValue({ alts: v.alts, absent: false });
			this.fail(scope, at, `"${text}" does not exist: ${type} has no field "${name}"${hint}`);
			return undefined;
		}
		const key = v.key === undefined ? undefined : `${v.key}${SEP}${name}`;
		const mayLack = v.absent || found.length < members.length || found.some((f) => f.absent);
		const absent = mayLack && !(key !== undefined && scope.facts.has(key));
		const absentAt = !absent ? undefined : v.absent ? v.absentAt : text;
		return { alts: found.flatMap((f) => f.alts), absent, absentAt, key };
	}
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
}): Diagnostic[] {
	const parsed = new Map<string, Parsed>();
	for (const src of input.templates) {
		if (!parsed.has(src.name))
			parsed.set(src.name, { src, ast: undefined, bodyLines: src.body.split(/\r?\n/) });
	}
	const checker = new Checker(parsed, input.helpers);
	const calls = new Map<string, { to: string; at: Pos }[]>();
	for (const [name, tpl] of parsed) {
		try {
			tpl.ast = Handlebars.parse(tpl.src.body);
		} catch (err) {
			const { reason, ...at } = parseErrorAt(err, tpl.bodyLines);
			checker.report(tpl, at, `Handlebars parse error: ${reason}`, "bad_template");
			continue;
		}
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

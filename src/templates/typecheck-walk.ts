/**
 * The type checker's walk over templates: statements, blocks, helper calls
 * and partials, with a model of Handlebars' context stack and guards.
 */
import { z } from "zod";
import { codeFrame, type Diagnostic, type ErrorCode } from "../errors.js";
import type { HelperSignature } from "./typecheck-scope.js";
import {
	absentMessage,
	describeParam,
	type Expr,
	fits,
	fitsParam,
	type Parsed,
	type Path,
	type Pos,
	partialName,
	pathText,
	resolvePath,
	type Scope,
	SEP,
	shown,
	simpleName,
	type TemplateSource,
	type Value,
	value,
	withPrefixes,
} from "./typecheck-scope.js";
import {
	ANY,
	BOOLEAN,
	describeValue,
	didYouMean,
	didYouMeanOrList,
	flatten,
	kindsOf,
	NUMBER,
	type Schema,
	STRING,
} from "./zod-types.js";

type Call = { path: Expr; params: Expr[]; hash?: hbs.AST.Hash };

const BLOCKS = ["if", "unless", "each", "with"];
const NOT_ALLOWED = ["lookup", "log"]; // built-ins whose result has no static type, or no text
const RETURNS = { string: STRING, boolean: BOOLEAN, any: ANY };
const LITERALS: Record<string, Schema> = {
	StringLiteral: STRING,
	NumberLiteral: NUMBER,
	BooleanLiteral: BOOLEAN,
};

/** The file's line with a one-line lead-in and a caret under the column. */
function frameOf(src: TemplateSource, line: number, column: number): string | undefined {
	if (src.fileText !== undefined) return codeFrame(src.fileText, line, column);
	// Only the body is known: pad it so that its lines keep their file numbers.
	return codeFrame("\n".repeat(src.bodyLine - 1) + src.body, line, column);
}

/** The walk over templates: context stack, guards, helpers and partials. */
export class Checker {
	readonly found = new Map<string, Diagnostic>();
	private readonly checked = new Set<string>(); // (partial, context) pairs already walked
	private readonly active: string[] = []; // partials being walked, to stop at cycles
	private readonly ids = new Map<Schema, number>();
	private fresh = 0;
	private readonly failAt = (scope: Scope, at: Pos, message: string) =>
		this.report(scope.tpl, at, message);

	constructor(
		private readonly templates: ReadonlyMap<string, Parsed>,
		private readonly helpers: Readonly<Record<string, HelperSignature>>,
		private readonly unreadable: ReadonlySet<string> = new Set(),
	) {}

	report(tpl: Parsed, at: Pos, message: string, code: ErrorCode = "template_type"): void {
		const [file, line, column] = [tpl.src.file, at.line + tpl.src.bodyLine - 1, at.column + 1];
		const d: Diagnostic = { severity: "error", code, message, file, line, column };
		const frame = frameOf(tpl.src, line, column);
		if (frame !== undefined) d.frame = frame;
		this.found.set(`${file}:${line}:${column}:${code}:${message}`, d);
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
				else if (name !== undefined && this.unreadable.has(name)) continue;
				else {
					const message =
						name === undefined
							? "dynamic partials ({{> (expr)}}) are not supported: name the partial"
							: `unknown partial "${name}"${didYouMeanOrList(name, this.templates.keys(), "templates of this set")}`;
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
		const v = isCall ? this.call(m, scope) : this.expr(m.path, scope);
		const [text, at] = [shown(m.path), m.path.loc.start];
		if (v?.absent) this.report(scope.tpl, at, absentMessage(m.path, v));
		else if (v !== undefined && !fits(v, ["string", "number", "boolean"])) {
			const what = `${text} is ${describeValue(v)}`;
			this.report(
				scope.tpl,
				at,
				`${what}: only strings, numbers, booleans and enums can be printed`,
			);
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
			const original = (b.path as Path).original ?? shown(b.path);
			const hint = didYouMean(original, [...Object.keys(this.helpers), ...BLOCKS]);
			const section = b.params.length > 0 || raw ? "" : "; use #if, #each or #with for a section";
			const message = `unknown block helper "${original}"${hint}${section}`;
			this.report(scope.tpl, b.path.loc.start, message, "unknown_helper");
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
			this.report(scope.tpl, b.path.loc.start, `#${name} takes 1 argument, got ${b.params.length}`);
		}
		const arg = b.params[0];
		const v = arg === undefined ? undefined : this.expr(arg, scope);
		// A guard may test an absent value, but Handlebars cannot read a field of one.
		if (v?.absent && arg?.type === "PathExpression" && v.absentAt !== pathText(arg as Path)) {
			this.report(scope.tpl, arg.loc.start, absentMessage(arg, v));
		}
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
		// Handlebars pushes a context only when it is another object: under
		// `#with this` a `../` still names the outer context of the block.
		const same =
			name === "with" &&
			arg?.type === "PathExpression" &&
			(arg as Path).depth === 0 &&
			(arg as Path).parts.length === 0;
		const stack = same ? scope.stack : [...scope.stack, frames[0] ?? value([ANY])];
		const eachDepth = scope.eachDepth + (name === "each" ? 1 : 0);
		this.program(b.program, { ...guarded, stack, params, eachDepth });
		this.program(b.inverse, scope);
	}

	/** The element of what `#each` iterates; an absent array is fine (it renders nothing). */
	private element(v: Value, arg: Expr, key: string, scope: Scope): Value {
		const arrays = v.alts.filter((a) => a instanceof z.ZodArray || kindsOf(a).includes("any"));
		if (arrays.length === 0 || arrays.length < v.alts.length) {
			const message = `#each needs an array, but ${shown(arg)} is ${describeValue(v)}`;
			this.report(scope.tpl, arg.loc.start, message);
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
			this.report(scope.tpl, p.loc.start, "a partial takes at most one context argument");
		if (arg !== undefined) {
			const v = this.expr(arg, scope);
			if (v?.absent) this.report(scope.tpl, arg.loc.start, absentMessage(arg, v));
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
		if (e.type === "PathExpression") return resolvePath(e as Path, scope, this.failAt);
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
				: didYouMeanOrList(called, [...Object.keys(this.helpers), ...BLOCKS], "helpers");
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
			else if (v.absent || !fitsParam(v, want)) {
				const is = `${shown(node)} is ${describeValue(v)}`;
				this.report(tpl, node.loc.start, `${where} must be ${describeParam(want)}, but ${is}`);
			}
		}
		return value([RETURNS[sig.returns]]);
	}
}

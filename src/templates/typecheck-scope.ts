/**
 * The type checker's model of a point in a template: what a value may be,
 * the context stack, block params and guards in force; resolving a path
 * against them; and how expressions read in messages.
 */
import { z } from "zod";
import {
	BOOLEAN,
	describeValue,
	didYouMean,
	flatten,
	type Kind,
	kindsOf,
	memberOf,
	NUMBER,
	nestedField,
	type Schema,
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

/** A helper parameter's kind; `string[]` is an array whose items are all strings. */
export type ParamKind = "string" | "number" | "boolean" | "array" | "string[]" | "any";

/** A helper's parameter kinds, checked at every call. */
export interface HelperSignature {
	params: readonly ParamKind[];
	/** How many trailing params may be left out. */
	optionalParams?: number;
	returns: "string" | "boolean" | "any";
}

export type Expr = hbs.AST.Expression;
export type Path = hbs.AST.PathExpression;
export type Pos = hbs.AST.Position;

/**
 * What an expression may evaluate to: its possible schemas (unions flattened), whether it may
 * be absent despite the guards in force (`absentAt`: the first such prefix, as written), and
 * the absolute `key` of its path, under which `#if` records guard facts.
 */
export interface Value {
	alts: readonly Schema[];
	absent: boolean;
	absentAt: string | undefined;
	key: string | undefined;
}

export interface Parsed {
	src: TemplateSource;
	ast: hbs.AST.Program | undefined;
	bodyLines: readonly string[];
}

export interface Scope {
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

/** Reports a finding at a position of the scope's template. */
export type Fail = (scope: Scope, at: Pos, message: string) => void;

export const SEP = "\u0000"; // joins key segments; no field name written in a template contains it
export const SCOPED = /^(\.|this\b)/; // `this.x` and `./x` skip helpers and block params
const DATA: Record<string, Schema> = { index: NUMBER, key: NUMBER, first: BOOLEAN, last: BOOLEAN };

export function value(alts: readonly Schema[], key?: string): Value {
	return { alts, absent: false, absentAt: undefined, key };
}

/** Whether every alternative of `v` is of one of `kinds` (anything goes for `z.any()`). */
export function fits(v: Value, kinds: readonly Kind[]): boolean {
	return v.alts.every((a) => kindsOf(a).every((k) => k === "any" || kinds.includes(k)));
}

/** Whether `v` may be passed where a helper takes `want`. */
export function fitsParam(v: Value, want: ParamKind): boolean {
	if (want !== "string[]") return want === "any" || fits(v, [want]);
	return v.alts.every((a) => {
		if (kindsOf(a).includes("any")) return true;
		if (!(a instanceof z.ZodArray)) return false;
		const item = flatten(a.element as Schema);
		return !item.absent && fits(value(item.alts), ["string"]);
	});
}

/** A parameter kind as messages say it. */
export function describeParam(want: ParamKind): string {
	return want === "string[]" ? "an array of strings" : want;
}

export function absentMessage(e: Expr, v: Value): string {
	const text = e.type === "PathExpression" ? pathText(e as Path) : shown(e);
	const at = v.absentAt ?? text;
	const lead = at === text ? "" : `"${text}": `;
	return `${lead}"${at}" may be absent (${describeValue(v)}); guard it with {{#if ${at}}}`;
}

/** A path as it can be written back, cut after its first `n` parts. */
export function pathText(p: Path, n = p.parts.length): string {
	const head = p.data ? "@" : `${"../".repeat(p.depth)}${SCOPED.test(p.original) ? "this." : ""}`;
	const segments = p.parts.slice(0, n).map((s) => (/^[A-Za-z_$][\w$-]*$/.test(s) ? s : `[${s}]`));
	return `${head}${segments.join(".")}`.replace(/^this\.$/, "this");
}

/** How an expression reads in a message: `"a.b"`, `"text"`, `3`, `(join …)`. */
export function shown(e: Expr): string {
	if (e.type === "PathExpression") return `"${pathText(e as Path)}"`;
	if (e.type === "SubExpression") return `(${pathText((e as hbs.AST.SubExpression).path)} …)`;
	const literal = (e as Partial<hbs.AST.StringLiteral>).value;
	return literal === undefined
		? e.type.replace("Literal", "").toLowerCase()
		: JSON.stringify(literal);
}

/** The name of a helper-like path (`join`; not `a.b`, `this.x`, `../x` or `@x`). */
export function simpleName(e: Expr): string | undefined {
	const p = e as Path;
	const simple = e.type === "PathExpression" && !p.data && p.depth === 0 && p.parts.length === 1;
	return simple && !SCOPED.test(p.original) ? p.parts[0] : undefined;
}

/** The static name of `{{> name}}`, or undefined for a dynamic `{{> (expr)}}`. */
export function partialName(
	p: hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement,
): string | undefined {
	const n = p.name as Expr;
	if (n.type === "PathExpression") return (n as Path).original;
	return n.type === "SubExpression" ? undefined : String((n as hbs.AST.StringLiteral).value);
}

/** Adds `key` and every prefix of it (if `a.b` is truthy, `a` is there too). */
export function withPrefixes(facts: ReadonlySet<string>, key: string): Set<string> {
	const out = new Set(facts);
	const parts = key.split(SEP);
	for (let n = 1; n <= parts.length; n++) out.add(parts.slice(0, n).join(SEP));
	return out;
}

/** Resolves a path against the context stack, block params and `@data` variables. */
export function resolvePath(p: Path, scope: Scope, fail: Fail): Value | undefined {
	const head = p.parts[0] ?? "";
	let v: Value | undefined;
	let [from, hints] = [1, [] as string[]];
	if (p.data) {
		const data = DATA[head];
		if (head === "root") v = scope.stack[0];
		else if (data === undefined) {
			const hint = didYouMean(head, ["root", ...Object.keys(DATA)]);
			fail(scope, p.loc.start, `unknown data variable "@${head}"${hint}`);
		} else if (scope.eachDepth <= p.depth) {
			fail(scope, p.loc.start, `@${head} is only defined inside {{#each}}`);
		} else v = value([data]);
	} else if (!SCOPED.test(p.original) && p.depth === 0 && scope.params.has(head)) {
		v = scope.params.get(head);
	} else {
		from = 0;
		v = scope.stack[scope.stack.length - 1 - p.depth];
		if (v === undefined) {
			const levels = `${p.depth} level${p.depth === 1 ? "" : "s"}`;
			fail(scope, p.loc.start, `"${p.original}" goes ${levels} up, past the root context`);
		}
		if (p.depth === 0 && !SCOPED.test(p.original)) hints = [...scope.params.keys()];
	}
	for (let i = from; i < p.parts.length && v !== undefined; i++) {
		const text = pathText(p, i + 1);
		v = step(v, p.parts[i] ?? "", text, p.loc.start, scope, fail, i === 0 ? hints : []);
	}
	return v;
}

/** One `.name` step; reports (yielding undefined) when no alternative has the field. */
function step(
	v: Value,
	name: string,
	text: string,
	at: Pos,
	scope: Scope,
	fail: Fail,
	hints: string[],
): Value | undefined {
	const members = v.alts.map((a) => memberOf(a, name));
	const found = members.filter((m) => m !== undefined).map(flatten);
	if (found.length === 0) {
		const fields = v.alts.flatMap((a) => (a instanceof z.ZodObject ? Object.keys(a.shape) : []));
		const nested = v.alts.map((a) => nestedField(a, name)).find((f) => f !== undefined);
		const hint =
			didYouMean(name, [...fields, ...hints]) ||
			(nested === undefined ? "" : ` (did you mean "${text.slice(0, -name.length)}${nested}"?)`);
		const type = describeValue({ alts: v.alts, absent: false });
		fail(scope, at, `"${text}" does not exist: ${type} has no field "${name}"${hint}`);
		return undefined;
	}
	const key = v.key === undefined ? undefined : `${v.key}${SEP}${name}`;
	const mayLack = v.absent || found.length < members.length || found.some((f) => f.absent);
	const absent = mayLack && !(key !== undefined && scope.facts.has(key));
	const absentAt = !absent ? undefined : v.absent ? v.absentAt : text;
	return { alts: found.flatMap((f) => f.alts), absent, absentAt, key };
}

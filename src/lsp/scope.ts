/**
 * What a point of a template being typed can see: the context stack, block
 * params and `#each` depth at an offset, for completion and hover. The text
 * before the point is usually not valid Handlebars yet, so the blocks open
 * there are found by scanning mustaches, not by parsing; their arguments are
 * resolved with the type checker's own `resolvePath`. A partial sees what its
 * first caller in the set sees at the call.
 */
import Handlebars from "handlebars";
import { z } from "zod";
import {
	type Parsed as CheckerParsed,
	type Path,
	resolvePath,
	type Scope,
	type Value,
	value,
	withPrefixes,
} from "../templates/typecheck-scope.js";
import { ANY, flatten, kindsOf, NUMBER, type Schema } from "../templates/zod-types.js";
import { OPTIONAL_ROOT_VIEWS, ROOT_VIEWS } from "../view/schema.js";
import { parseCached } from "./workspace.js";

/** One mustache of a template's text: its sigil (`#`, `/`, `>`, `^`, `!` or ""), its inside and its span. */
export interface Mustache {
	sigil: string;
	inner: string;
	start: number;
	end: number;
}

const MUSTACHE = /\{\{!--[\s\S]*?--\}\}|\{\{(\{*)~?\s*([#/>^!]?)([\s\S]*?)~?\}\}\}*/g;

/** Every complete mustache of `text` (comments included, with sigil `!`). */
export function mustaches(text: string): Mustache[] {
	const out: Mustache[] = [];
	for (const m of text.matchAll(MUSTACHE)) {
		const start = m.index as number;
		if (m[0].startsWith("{{!--"))
			out.push({ sigil: "!", inner: "", start, end: start + m[0].length });
		else
			out.push({ sigil: m[2] ?? "", inner: (m[3] ?? "").trim(), start, end: start + m[0].length });
	}
	return out;
}

/** Where a file's body starts (the offset after its front-matter), 0 when it has none. */
export function bodyStart(text: string, file: string): number {
	const parsed = parseCached(text, file);
	if (parsed.ok) return text.length - parsed.file.body.length;
	const m = /^---\r?\n[\s\S]*?\r?\n---[^\n]*\n?/.exec(text);
	return m === null ? 0 : m[0].length;
}

/** A template's texts by name, for finding a partial's callers. */
export type Texts = ReadonlyMap<string, { file: string; text: string }>;

const DUMMY: CheckerParsed = {
	src: { name: "", file: "", body: "", bodyLine: 1 },
	ast: undefined,
	bodyLines: [],
};

/** The scope of the root context of template `name`, or of its first caller's call. */
function rootScope(texts: Texts, name: string, seen: Set<string>): Scope {
	const schema =
		(ROOT_VIEWS as Record<string, z.ZodType>)[name] ??
		(OPTIONAL_ROOT_VIEWS as Record<string, z.ZodType>)[name];
	const base: Scope = { tpl: DUMMY, stack: [], params: new Map(), eachDepth: 0, facts: new Set() };
	if (schema !== undefined) return { ...base, stack: [value(flatten(schema).alts, "")] };
	seen.add(name);
	for (const [caller, t] of texts) {
		if (seen.has(caller)) continue;
		for (const m of mustaches(t.text)) {
			if (m.sigil !== ">") continue;
			const [called, arg] = m.inner.split(/\s+/);
			if (called !== name) continue;
			const at = scopeAt(texts, caller, m.start, seen);
			if (arg === undefined || arg.includes("=")) return { ...at, params: new Map() };
			const v = resolveText(arg, at) ?? value([ANY]);
			return { ...at, stack: [...at.stack, { ...v, absent: false }], params: new Map() };
		}
	}
	return { ...base, stack: [value([ANY], "")] };
}

/** A block open at a point; `chained` when an `{{else if …}}` opened it (its outer block's close ends it). */
type Open = { name: string; args: string[]; params: string[]; inverse: boolean; chained: boolean };

/** The block a `{{#…}}` (or the rest of an `{{else …}}`) opens. */
function opened(inner: string, chained: boolean): Open {
	const params = /\bas\s*\|([^|]*)\|/.exec(inner);
	const head = inner.replace(/\bas\s*\|[^|]*\|/, "").trim();
	const [name = "", ...args] = head.split(/\s+/);
	const names = params?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
	return { name, args, params: names, inverse: false, chained };
}

/** The blocks open at `offset` of `text`, outermost first. */
export function openBlocks(text: string, from: number, offset: number): Open[] {
	const open: Open[] = [];
	for (const m of mustaches(text.slice(0, offset))) {
		if (m.start < from) continue;
		if (m.sigil === "#") open.push(opened(m.inner, false));
		else if (m.sigil === "/") {
			// One close ends the block and every `{{else if …}}` chained onto it.
			while (open.pop()?.chained === true);
		} else if ((m.sigil === "^" && m.inner === "") || /^else\b/.test(m.inner)) {
			const top = open.at(-1);
			if (top !== undefined) top.inverse = true;
			const chain = /^else\s+(\S[\s\S]*)$/.exec(m.inner)?.[1];
			if (chain !== undefined) open.push(opened(chain, true));
		}
	}
	return open;
}

/** The scope at `offset` of template `name`'s text. */
export function scopeAt(
	texts: Texts,
	name: string,
	offset: number,
	seen = new Set<string>(),
): Scope {
	const t = texts.get(name);
	let scope = rootScope(texts, name, seen);
	if (t === undefined) return scope;
	for (const b of openBlocks(t.text, bodyStart(t.text, t.file), offset)) {
		// `#if` guards its block, `#unless` its else branch; other else branches keep the outer context.
		const guards = b.name === (b.inverse ? "unless" : "if");
		if (b.inverse && !guards) continue;
		const arg = b.args[0];
		const v = arg === undefined ? undefined : resolveText(arg, scope);
		const key = v?.key ?? `#${b.name}`;
		if (b.name === "if" || b.name === "unless") {
			if (guards) scope = { ...scope, facts: withPrefixes(scope.facts, key) };
			continue;
		}
		if (b.name !== "each" && b.name !== "with") {
			const params = new Map(scope.params);
			for (const p of b.params) params.set(p, value([ANY]));
			scope = { ...scope, params };
			continue;
		}
		const frame = v === undefined ? value([ANY]) : b.name === "each" ? elementOf(v, key) : v;
		const present = {
			...frame,
			absent: b.name === "each" ? frame.absent : false,
			absentAt: undefined,
		};
		const params = new Map(scope.params);
		const values = b.name === "each" ? [present, value([NUMBER])] : [present];
		for (const [i, p] of b.params.entries()) params.set(p, values[i] ?? value([ANY]));
		scope = {
			...scope,
			stack: arg === "this" ? scope.stack : [...scope.stack, present],
			params,
			eachDepth: scope.eachDepth + (b.name === "each" ? 1 : 0),
			facts: withPrefixes(scope.facts, key),
		};
	}
	return scope;
}

/** The element of what `#each` iterates (any, when it is not an array). */
function elementOf(v: Value, key: string): Value {
	const arrays = v.alts.filter((a) => a instanceof z.ZodArray || kindsOf(a).includes("any"));
	const items = arrays.map((a) => flatten(a instanceof z.ZodArray ? (a.element as Schema) : ANY));
	if (items.length === 0) return value([ANY], `${key}\u0000[]`);
	return {
		...value(
			items.flatMap((i) => i.alts),
			`${key}\u0000[]`,
		),
		absent: items.some((i) => i.absent),
	};
}

/** The path `text` (`a.b`, `../x`, `@index`, `this`) resolved in `scope`, or undefined. */
export function resolveText(text: string, scope: Scope): Value | undefined {
	let path: Path;
	try {
		const ast = Handlebars.parse(`{{${text}}}`);
		const m = ast.body[0] as hbs.AST.MustacheStatement | undefined;
		if (m?.path.type !== "PathExpression") return undefined;
		path = m.path as Path;
	} catch {
		return undefined;
	}
	let failed = false;
	const v = resolvePath(path, scope, () => {
		failed = true;
	});
	return failed ? undefined : v;
}

/** The description a schema carries (`.describe()`), through its wrappers. */
export function descriptionOf(s: Schema | undefined): string | undefined {
	let cur: Schema | undefined = s;
	for (let i = 0; cur !== undefined && i < 8; i++) {
		if (cur.description !== undefined) return cur.description;
		const inner = (cur as { unwrap?: () => Schema }).unwrap;
		cur = typeof inner === "function" ? inner.call(cur) : undefined;
	}
	return undefined;
}

/** The fields a value may have: name, schema, from each object alternative. */
export function fieldsOf(v: Value): Map<string, Schema> {
	const out = new Map<string, Schema>();
	for (const a of v.alts) {
		if (a instanceof z.ZodObject) {
			for (const [k, s] of Object.entries(a.shape)) if (!out.has(k)) out.set(k, s as Schema);
		}
		if (a instanceof z.ZodArray && !out.has("length")) out.set("length", NUMBER);
	}
	return out;
}

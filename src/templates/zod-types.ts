/**
 * What the type checker needs to know of zod 4 schemas: their alternatives,
 * the kinds of value they hold, their fields, a short description for
 * messages; and the "did you mean" of a misspelt name (also the YAML
 * validation's, for an unknown key).
 */
import { z } from "zod";
import { nearest } from "../text/nearest.js";

export type Schema = z.ZodType;
/** The kinds of value a helper parameter may take, and two more a schema may hold. */
export type Kind = "string" | "number" | "boolean" | "array" | "any" | "object" | "other";

export const [STRING, NUMBER, BOOLEAN, ANY] = [z.string(), z.number(), z.boolean(), z.any()];

/** Peels wrappers and unions off a schema: its concrete alternatives, and whether it may be absent. */
export function flatten(s: Schema): { alts: Schema[]; absent: boolean } {
	if (s instanceof z.ZodOptional || s instanceof z.ZodExactOptional || s instanceof z.ZodNullable) {
		return { alts: flatten(s.unwrap() as Schema).alts, absent: true };
	}
	// The view is parsed output, so a default has been filled in.
	if (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodNonOptional) {
		return { alts: flatten(s.unwrap() as Schema).alts, absent: false };
	}
	if (s instanceof z.ZodCatch || s instanceof z.ZodReadonly || s instanceof z.ZodLazy) {
		return flatten(s.unwrap() as Schema);
	}
	// A pipe's view is its output side; a transform's output has no schema.
	if (s instanceof z.ZodPipe)
		return flatten(s.out instanceof z.ZodTransform ? ANY : (s.out as Schema));
	if (s instanceof z.ZodUnion) {
		const parts = (s.options as Schema[]).map(flatten);
		return { alts: parts.flatMap((p) => p.alts), absent: parts.some((p) => p.absent) };
	}
	const absent = ["null", "undefined", "void"].includes(s.def.type);
	return { alts: absent ? [] : [s], absent };
}

/** The kinds of value a concrete schema holds. `def.type` also covers z.email(), z.int() & co. */
export function kindsOf(s: Schema): Kind[] {
	const ofValue = (v: unknown): Kind =>
		typeof v === "bigint"
			? "number"
			: ((["string", "number", "boolean"] as Kind[]).find((k) => k === typeof v) ?? "other");
	if (s instanceof z.ZodEnum) return s.options.map(ofValue);
	if (s instanceof z.ZodLiteral) return [...s.values].map(ofValue);
	const t = s.def.type;
	if (t === "string" || t === "template_literal") return ["string"];
	if (t === "number" || t === "bigint") return ["number"];
	if (t === "boolean" || t === "any" || t === "array" || t === "object") return [t];
	return [t === "unknown" ? "any" : t === "record" ? "object" : "other"];
}

/** The schema of field `name` of a concrete schema, or undefined when it has none. */
export function memberOf(s: Schema, name: string): Schema | undefined {
	if (s instanceof z.ZodArray) {
		if (name === "length") return NUMBER;
		return /^\d+$/.test(name) ? (s.element as Schema).optional() : undefined; // may be out of range
	}
	if (s instanceof z.ZodObject) {
		if (Object.hasOwn(s.shape, name)) return s.shape[name] as Schema;
		const rest = s.def.catchall as Schema | undefined; // z.looseObject(): any other key
		return rest === undefined || rest instanceof z.ZodNever ? undefined : rest;
	}
	if (s instanceof z.ZodRecord) return s.valueType as Schema;
	return kindsOf(s).includes("any") ? ANY : undefined;
}

/** A short type for messages: `object {cwd, memory?}`, `array of string`, `"a" | "b"`. */
export function describe(s: Schema, depth = 0): string {
	if (s instanceof z.ZodObject) {
		const keys = Object.keys(s.shape).map((k) => (flatten(s.shape[k]).absent ? `${k}?` : k));
		return `object {${(keys.length > 8 ? [...keys.slice(0, 8), "…"] : keys).join(", ")}}`;
	}
	const inner = s instanceof z.ZodArray ? s.element : s instanceof z.ZodRecord ? s.valueType : null;
	if (inner !== null)
		return `${s.def.type} of ${depth > 1 ? "…" : describeValue(flatten(inner as Schema), depth + 1)}`;
	if (s instanceof z.ZodEnum || s instanceof z.ZodLiteral) {
		const values: unknown[] = s instanceof z.ZodEnum ? s.options : [...s.values];
		return values.map((v) => (typeof v === "string" ? JSON.stringify(v) : String(v))).join(" | ");
	}
	return s.def.type;
}

export function describeValue(v: { alts: readonly Schema[]; absent: boolean }, depth = 0): string {
	const parts = [...v.alts.map((a) => describe(a, depth)), ...(v.absent ? ["undefined"] : [])];
	return parts.join(" | ") || "undefined";
}

/** ` (did you mean "x"?)` for the nearest candidate within 2 edits (or a third of the name). */
export function didYouMean(name: string, candidates: Iterable<string>): string {
	const best = nearest(name, candidates);
	return best === undefined ? "" : ` (did you mean "${best}"?)`;
}

/** {@link didYouMean}, else the names there are: ` (the helpers: eq, join)`. */
export function didYouMeanOrList(name: string, candidates: Iterable<string>, what: string): string {
	const all = [...new Set(candidates)].sort();
	const near = didYouMean(name, all);
	if (near !== "" || all.length === 0) return near;
	return ` (the ${what}: ${all.length > 12 ? `${all.slice(0, 12).join(", ")}, …` : all.join(", ")})`;
}

/**
 * A field `name` one or two objects down from `s`, as the path from `s`
 * (`environment.memory` for `memory` at the root), when exactly one such
 * field is named so: a field written at the wrong level.
 */
export function nestedField(s: Schema, name: string): string | undefined {
	const found: string[] = [];
	const walk = (t: Schema, prefix: string, depth: number) => {
		for (const alt of flatten(t).alts) {
			if (!(alt instanceof z.ZodObject)) continue;
			for (const [key, child] of Object.entries(alt.shape as Record<string, Schema>)) {
				if (depth > 0 && key === name) found.push(`${prefix}${key}`);
				if (depth < 2) walk(child, `${prefix}${key}.`, depth + 1);
			}
		}
	};
	walk(s, "", 0);
	const unique = [...new Set(found)];
	return unique.length === 1 ? unique[0] : undefined;
}

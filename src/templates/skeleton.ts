/**
 * Proving the skeleton's section order before anything renders. The skeleton
 * (`system.hbs`) must, in document order, open each section's tag on its own
 * line, call the section's partial, and close the tag: harness, tools,
 * environment, then lineage inside `{{#if lineage}}`. No other template may
 * write a section tag or call a section partial.
 */
import Handlebars from "handlebars";
import type { Diagnostic } from "../errors.js";
import { SECTIONS } from "../view/schema.js";
import type { TemplateFile } from "./front-matter.js";

/** Where an event sits: at the top level, directly in `{{#if lineage}}`, or in another block. */
type Guard = "none" | "lineage" | "other";
/**
 * A section tag or partial call; `alone`: a tag that is all of its line, as
 * it must be; `unknown`: a call of a partial the set does not have (the type
 * check reports it), which may stand for any section's.
 */
type Event = {
	what: string;
	line: number;
	column: number;
	guard: Guard;
	alone: boolean;
	unknown?: boolean;
};

/** Anything that reads as a section tag, wherever it stands. */
const TAG = new RegExp(`<\\s*(?:/\\s*)?(?:${SECTIONS.join("|")})\\b[^>]*>`, "gi");
const TAG_ALONE = new RegExp(`^</?(?:${SECTIONS.join("|")})>$`);

const EXPECTED = SECTIONS.flatMap((s) => [`<${s}>`, `{{> ${s}}}`, `</${s}>`]);

/** Every problem with the skeleton and with section markup elsewhere. */
export function checkSkeleton(
	skeleton: TemplateFile,
	files: ReadonlyMap<string, TemplateFile>,
	parse: (body: string) => hbs.AST.Program = Handlebars.parse,
): Diagnostic[] {
	const diagnostics: Diagnostic[] = [];
	const at = (t: TemplateFile, line: number, column: number, message: string) =>
		diagnostics.push({
			severity: "error",
			code: "section_order",
			message,
			file: t.file,
			line: line + t.bodyLine - 1,
			column,
		});

	for (const [name, t] of files) {
		const events = eventsOf(t, parse, files);
		if (events === undefined) continue; // a parse error: the type check reports it
		if (name !== "system") {
			const first = events.find((e) => e.unknown !== true);
			if (first !== undefined) {
				at(t, first.line, first.column, `only the skeleton (system.hbs) may write ${first.what}`);
			}
			continue;
		}
		const inline = events.find((e) => !e.alone);
		if (inline !== undefined) {
			at(skeleton, inline.line, inline.column, `${inline.what} must stand alone on its line`);
			continue;
		}
		// A misspelt partial is its own error: where a section's partial is due and does not
		// follow, it is taken as that one (no order error follows from it); else it is left out.
		const known: Event[] = [];
		for (const [i, e] of events.entries()) {
			const due = EXPECTED[known.length] ?? "";
			const next = events.slice(i + 1).find((n) => n.unknown !== true);
			if (e.unknown !== true) known.push(e);
			else if (due.startsWith("{{>") && next?.what !== due) known.push({ ...e, what: due });
		}
		events.splice(0, events.length, ...known);
		const seen = events.map((e) => e.what);
		const mismatch = EXPECTED.findIndex((want, i) => seen[i] !== want);
		if (mismatch !== -1 || seen.length !== EXPECTED.length) {
			const i = mismatch === -1 ? EXPECTED.length : mismatch;
			const found = events[i];
			const expected = EXPECTED[i] ?? "nothing more";
			const message = `sections must be harness, tools, environment, lineage, each as <tag>, {{> partial}}, </tag>: expected ${expected}, found ${found?.what ?? "the end of the template"}`;
			at(skeleton, found?.line ?? 1, found?.column ?? 1, message);
			continue;
		}
		for (const e of events) {
			const isLineage = e.what.includes("lineage");
			if (e.guard !== (isLineage ? "lineage" : "none")) {
				const message = isLineage
					? `${e.what} must be inside {{#if lineage}}: the lineage block appears only with collapse metadata`
					: `${e.what} must not be inside a block: the section is always present`;
				at(skeleton, e.line, e.column, message);
			}
		}
	}
	return diagnostics;
}

/** Section tags and section partial calls, in document order. */
function eventsOf(
	t: TemplateFile,
	parse: (body: string) => hbs.AST.Program,
	files: ReadonlyMap<string, TemplateFile>,
): Event[] | undefined {
	let ast: hbs.AST.Program;
	try {
		ast = parse(t.body);
	} catch {
		return undefined;
	}
	const events: Event[] = [];
	const bodyLines = t.body.split("\n");
	const walk = (program: hbs.AST.Program | undefined, guard: Guard) => {
		for (const node of program?.body ?? []) {
			if (node.type === "ContentStatement") {
				const c = node as hbs.AST.ContentStatement;
				// The raw text, with the whitespace a standalone tag strips: its positions are the file's.
				const raw = c.original as unknown as string;
				for (const match of raw.matchAll(TAG)) {
					const before = raw.slice(0, match.index);
					const lines = before.split("\n");
					const line = c.loc.start.line + lines.length - 1;
					events.push({
						what: match[0],
						line,
						column:
							lines.length === 1
								? c.loc.start.column + before.length + 1
								: (lines.at(-1)?.length ?? 0) + 1,
						guard,
						alone: TAG_ALONE.test(match[0]) && bodyLines[line - 1] === match[0],
					});
				}
			} else if (node.type === "PartialStatement") {
				const p = node as hbs.AST.PartialStatement;
				const name = (p.name as hbs.AST.PathExpression).original;
				const section = (SECTIONS as readonly string[]).includes(name);
				if (section || (p.name.type === "PathExpression" && !files.has(name))) {
					events.push({
						what: `{{> ${name}}}`,
						line: p.loc.start.line,
						column: p.loc.start.column + 1,
						guard,
						alone: true,
						...(section ? {} : { unknown: true }),
					});
				}
			} else if (node.type === "BlockStatement") {
				const b = node as hbs.AST.BlockStatement;
				const isLineageGuard =
					(b.path as hbs.AST.PathExpression).original === "if" &&
					b.params.length === 1 &&
					(b.params[0] as hbs.AST.PathExpression).original === "lineage";
				walk(b.program, guard === "none" && isLineageGuard ? "lineage" : "other");
				walk(b.inverse, "other");
			}
		}
	};
	walk(ast, "none");
	return events;
}

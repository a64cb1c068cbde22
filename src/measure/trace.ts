/**
 * Which template wrote which part of a system prompt. The set is compiled a
 * second time with every partial wrapped in a pair of sentinels that session
 * text cannot contain (a random nonce between NULs); the prompt is rendered
 * with the same view, the sentinels are taken out, and where they stood
 * gives each partial call's span. The result is used only when the text
 * without sentinels equals the real prompt, so a span is always a slice of
 * what the model gets. A traced set is kept by its sources' fingerprint, so
 * measuring a set again (every `inspect`, preview view and budget check)
 * checks and compiles nothing.
 */
import { randomBytes } from "node:crypto";
import Handlebars from "handlebars";
import {
	assembleSet,
	COMPILE_OPTIONS,
	checkTemplateSet,
	endingLine,
	fingerprintOf,
	lineEnded,
	metaOf,
	type TemplateSetSource,
} from "../templates/compile.js";
import { ROOT_TEMPLATES, SECTIONS, type SystemView } from "../view/schema.js";

/** One partial call's output in the prompt: `text.slice(start, end)`. */
export interface Span {
	template: string;
	start: number;
	end: number;
	/** 0 for a partial the skeleton calls (a section), 1 for one that calls, and so on. */
	depth: number;
}

/** A set compiled with its partials wrapped in sentinels. */
export interface TracedSet {
	nonce: string;
	names: string[];
	render: (view: SystemView) => string;
}

/** Traced sets by fingerprint: a set is checked and compiled once, however often it is measured. */
const traced = new Map<string, TracedSet>();
const MAX_TRACED = 16;

export function tracedSet(source: TemplateSetSource): TracedSet {
	const fingerprint = fingerprintOf(source);
	const cached = traced.get(fingerprint);
	if (cached !== undefined) return cached;
	const { files, categories } = checkTemplateSet(source);
	const nonce = randomBytes(6).toString("hex");
	const names = [...files.keys()];
	const open = (i: number) => `\u0000${nonce}<${i}\u0000`;
	const close = (i: number) => `\u0000${nonce}>${i}\u0000`;
	const trailing = new RegExp(`(?:\\u0000${nonce}[<>]\\d+\\u0000)+$`);
	const hb = Handlebars.create();
	const fns = new Map<string, Handlebars.TemplateDelegate>();
	names.forEach((name, i) => {
		const fn = hb.compile(files.get(name)?.body ?? "", COMPILE_OPTIONS);
		const root = (ROOT_TEMPLATES as readonly string[]).includes(name);
		// A section's text ends its line inside its sentinels, as it does unmarked.
		const inner = (SECTIONS as readonly string[]).includes(name) ? endingLine(fn, trailing) : fn;
		const marked = lineEnded((context, options) => open(i) + inner(context, options) + close(i));
		fns.set(name, root ? fn : marked);
	});
	const set = assembleSet(metaOf(source, files, categories), hb, fns);
	const entry = { nonce, names, render: set.render.system };
	if (traced.size >= MAX_TRACED) traced.delete(traced.keys().next().value as string);
	traced.set(fingerprint, entry);
	return entry;
}

/** Every partial call's span in the prompt `source` renders for `view`, in document order. */
export function traceSystemPrompt(
	source: TemplateSetSource,
	view: SystemView,
	expected?: string,
): Span[] | undefined {
	const { nonce, names, render } = tracedSet(source);
	const marked = render(view);
	const pattern = new RegExp(`\\u0000${nonce}([<>])(\\d+)\\u0000`, "g");
	const spans: Span[] = [];
	const openSpans: Span[] = [];
	let text = "";
	let last = 0;
	for (const m of marked.matchAll(pattern)) {
		text += marked.slice(last, m.index);
		last = (m.index as number) + m[0].length;
		if (m[1] === "<") {
			const span = {
				template: names[Number(m[2])] as string,
				start: text.length,
				end: text.length,
				depth: openSpans.length,
			};
			spans.push(span);
			openSpans.push(span);
		} else {
			const span = openSpans.pop();
			if (span !== undefined) span.end = text.length;
		}
	}
	text += marked.slice(last);
	// The real render trims trailing newlines after the last sentinel; do the same.
	const trimmed = text.replace(/\n+$/, "");
	for (const span of spans) {
		span.start = Math.min(span.start, trimmed.length);
		span.end = Math.min(span.end, trimmed.length);
	}
	if (expected !== undefined && trimmed !== expected) return undefined;
	return spans;
}

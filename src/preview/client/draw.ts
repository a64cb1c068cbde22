/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Drawing a rendered session (sections, messages, their sizes and bars, the
 * overview strip) or, in its place, the located errors that stopped it.
 */
import type {
	DiagnosticView,
	FailedView,
	MessageView,
	PlaceView,
	RenderedView,
	Size,
} from "../protocol.js";
import { $, el } from "./dom.js";

/** A message longer than this many lines is shown cut, with a button for the rest. */
const SHOWN_LINES = 40;

function where(place: PlaceView): string {
	return [place.file, place.line, place.column].filter((p) => p !== undefined).join(":");
}

function sizeText(size: Size): string {
	const budget = size.budget === undefined ? "" : ` of ${size.budget.toLocaleString()} budgeted`;
	return `${size.tokens.toLocaleString()} tokens${budget} · ${size.chars.toLocaleString()} chars`;
}

/** A bar as long as `size`'s tokens, the largest part of the context filling it. */
function bar(size: Size, largest: number): HTMLElement {
	const fill = el("span");
	fill.style.width = `${largest === 0 ? 0 : Math.max(0.5, (100 * size.tokens) / largest)}%`;
	const over = size.budget !== undefined && size.tokens > size.budget;
	return el(
		"span",
		{ class: over ? "bar over" : "bar", role: "img", "aria-label": sizeText(size) },
		fill,
	);
}

function showPlace(text: string): void {
	const place = $("place");
	place.textContent = text;
	place.hidden = false;
}

export function drawView(view: RenderedView): void {
	$("failure").hidden = true;
	const { session, set, tokenizer, total, cacheStable, recordedUsage } = view;
	const usage =
		recordedUsage === null
			? ""
			: ` · recorded usage: ${Object.entries(recordedUsage)
					.map(([k, v]) => `${k} ${v?.toLocaleString()}`)
					.join(", ")}`;
	$("summary").replaceChildren(
		"session ",
		el("b", {}, session.sessionId),
		` · leaf ${session.leafId ?? "(none)"} · ${session.entryCount} entries · set `,
		el("b", {}, set.version),
		` (${set.fingerprint.slice(0, 12)}) · total `,
		el("b", {}, sizeText(total)),
		` · cache-stable prefix ${cacheStable.tokens.toLocaleString()} tokens (system prompt + ${cacheStable.messages} messages)${usage}`,
		el("br"),
		el("span", { class: "muted" }, `tokens: ${tokenizer.label}`),
	);
	const parts = [...view.systemPrompt.sections, ...view.messages];
	const largest = Math.max(0, ...parts.map((p) => p.tokens));
	drawOverview(view);
	const sections = view.systemPrompt.sections.map((s) => {
		const label = `${s.name}: ${where(s.template)}${s.skeleton === undefined ? "" : ` (opened at ${where(s.skeleton)})`}`;
		const header = el(
			"header",
			{ title: label },
			el("span", { class: "name" }, s.name),
			el("button", { type: "button", class: "template" }, where(s.template)),
			bar(s, largest),
			el("span", { class: "size" }, sizeText(s)),
		);
		header.addEventListener("click", () => showPlace(label));
		const partList =
			s.parts.length === 0
				? undefined
				: el(
						"ul",
						{ class: "parts" },
						...s.parts.map((p) =>
							el(
								"li",
								{ class: `depth-${p.depth}` },
								el("span", { class: "template" }, where(p)),
								bar(p, largest),
								el("span", { class: "size" }, sizeText(p)),
							),
						),
					);
		return el(
			"article",
			{ class: `block section section-${s.name}`, "data-section": s.name, id: `section-${s.name}` },
			header,
			partList,
			el("pre", {}, s.text),
		);
	});
	$("prompt").replaceChildren(
		el("h2", {}, "System prompt", el("span", { class: "size" }, sizeText(view.systemPrompt))),
		...sections,
	);
	$("messages").replaceChildren(
		el("h2", {}, `Messages (${view.messages.length})`),
		...view.messages.map((m) => drawMessage(m, largest)),
	);
	drawWarnings(view.diagnostics);
}

function drawMessage(m: MessageView, largest: number): HTMLElement {
	const name = [`#${m.index}`, m.role, m.kind === m.role ? "" : m.kind, m.label ?? ""]
		.filter((s) => s !== "")
		.join(" · ");
	const framing = m.framing === undefined ? undefined : `framed by ${where(m.framing)}`;
	const header = el(
		"header",
		{ title: `entry ${m.entryId}${framing === undefined ? "" : `, ${framing}`}` },
		el("span", { class: "name" }, name),
		el("span", { class: "muted" }, `entry ${m.entryId}`),
		framing === undefined
			? undefined
			: el("button", { type: "button", class: "template" }, framing),
		bar(m, largest),
		el(
			"span",
			{ class: "size" },
			`${sizeText(m)}${m.images > 0 ? ` · ${m.images} image(s), about ${m.imageTokens} tokens` : ""}`,
		),
	);
	if (m.framing !== undefined) {
		const label = `message #${m.index} (${m.storedRole}) framed by ${m.framing.name}: ${where(m.framing)}`;
		header.addEventListener("click", () => showPlace(label));
	}
	const classes = `block message kind-${m.kind}${m.framing === undefined ? "" : " framed"}`;
	const attrs = { class: classes, "data-kind": m.kind, id: `message-${m.index}` };
	return el("article", attrs, header, ...cutText(m.text));
}

/** Parts of the overview past which they are drawn without separators. */
const DENSE = 150;

/** One bar for the whole context: a segment per section and message, as long as its tokens. */
function drawOverview(view: RenderedView): void {
	const segment = (target: string, tokens: number, title: string, kind: string) => {
		const a = el("a", { href: `#${target}`, title, class: `seg-${kind}` });
		a.style.flexGrow = String(tokens);
		a.addEventListener("click", (event) => {
			event.preventDefault(); // the hash holds the session and set
			document.getElementById(target)?.scrollIntoView({ block: "start" });
		});
		return a;
	};
	// Past a few hundred parts, a separator each would be all the strip shows.
	$("overview").classList.toggle(
		"dense",
		view.systemPrompt.sections.length + view.messages.length > DENSE,
	);
	$("overview").replaceChildren(
		...view.systemPrompt.sections.map((s) =>
			segment(`section-${s.name}`, s.tokens, `${s.name}: ${sizeText(s)}`, s.name),
		),
		...view.messages.map((m) =>
			segment(
				`message-${m.index}`,
				m.tokens,
				`#${m.index} ${m.kind}: ${sizeText(m)}`,
				m.framing === undefined ? "message" : "framed",
			),
		),
	);
}

/** The text in a `pre`, cut after {@link SHOWN_LINES} lines with a button for the rest. */
function cutText(text: string): HTMLElement[] {
	const lines = text.split("\n");
	if (lines.length <= SHOWN_LINES + 5) return [el("pre", {}, text)];
	const pre = el("pre", {}, lines.slice(0, SHOWN_LINES).join("\n"));
	const more = el(
		"button",
		{ type: "button", class: "more-lines" },
		`… ${lines.length - SHOWN_LINES} more lines`,
	);
	more.addEventListener("click", () => {
		pre.textContent = text;
		more.remove();
	});
	return [pre, more];
}

function drawDiagnostic(d: DiagnosticView): HTMLElement {
	return el(
		"div",
		{ class: "diagnostic" },
		el("span", { class: "where" }, `${d.severity}: ${where(d) || "(no file)"}`),
		el("span", { class: "code" }, d.code),
		el("div", {}, d.message),
		d.frame === undefined ? undefined : el("pre", { class: "frame" }, d.frame),
	);
}

export function drawFailure(view: FailedView): void {
	const failure = $("failure");
	failure.replaceChildren(el("h2", {}, view.title), ...view.diagnostics.map(drawDiagnostic));
	failure.hidden = false;
	failure.dataset.kind = view.kind;
	for (const id of ["summary", "overview", "prompt", "messages", "warnings"])
		$(id).replaceChildren();
	$("place").hidden = true;
}

function drawWarnings(diagnostics: DiagnosticView[]): void {
	if (diagnostics.length === 0) {
		$("warnings").replaceChildren();
		return;
	}
	$("warnings").replaceChildren(
		el(
			"details",
			{ class: "warnings" },
			el("summary", {}, `${diagnostics.length} warning(s) reading the session`),
			...diagnostics.map(drawDiagnostic),
		),
	);
}

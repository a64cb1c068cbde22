/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Drawing a rendered session (sections, messages block by block, their sizes
 * and bars, the overview strip and its legend) or, in its place, the located
 * errors that stopped it. The template-location box follows the part it was
 * opened for across re-renderings (another set, a saved template).
 */
import type {
	BlockView,
	DiagnosticView,
	FailedView,
	MessageView,
	PlaceView,
	RenderedView,
	Size,
} from "../protocol.js";
import { $, count, el, fill } from "./dom.js";

/** A message longer than this many lines is shown cut, with a button for the rest. */
const SHOWN_LINES = 40;

function where(place: PlaceView): string {
	return [place.file, place.line, place.column].filter((p) => p !== undefined).join(":");
}

function sizeText(size: Size): string {
	const budget = size.budget === undefined ? "" : ` of ${size.budget.toLocaleString()} budgeted`;
	return `${count(size.tokens, "token")}${budget} · ${count(size.chars, "char")}`;
}

/** For a stub: the whole result's size and what the stub saves (` · stub of 3,717 tokens whole, −2,746`). */
function stubText(m: MessageView): string {
	const v = m.virtualized;
	if (v === undefined) return "";
	const saved = `${v.saved < 0 ? "+" : "−"}${Math.abs(v.saved).toLocaleString("en-US")}`;
	return ` · stub of ${count(v.tokens, "token")} whole, ${saved}`;
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

/** The part the location box was opened for, so a re-rendering can update or close it. */
type PlaceTarget = { section: string } | { message: number };
let placeTarget: PlaceTarget | undefined;

function showPlace(target: PlaceTarget, text: string): void {
	placeTarget = target;
	const place = $("place");
	place.textContent = text;
	place.hidden = false;
}

function sectionPlace(s: RenderedView["systemPrompt"]["sections"][number]): string {
	return `${s.name}: ${where(s.template)}${s.skeleton === undefined ? "" : ` (opened at ${where(s.skeleton)})`}`;
}

function messagePlace(m: MessageView): string | undefined {
	if (m.framing === undefined) return undefined;
	return `message #${m.index} (${m.storedRole}) framed by ${m.framing.name}: ${where(m.framing)}`;
}

/** The location box says where its part is in `view`, or closes when `view` has no such part. */
function refreshPlace(view: RenderedView): void {
	if (placeTarget === undefined) return;
	const target = placeTarget;
	const text =
		"section" in target
			? (() => {
					const s = view.systemPrompt.sections.find((x) => x.name === target.section);
					return s === undefined ? undefined : sectionPlace(s);
				})()
			: (() => {
					const m = view.messages[target.message];
					return m === undefined ? undefined : messagePlace(m);
				})();
	if (text === undefined) {
		placeTarget = undefined;
		$("place").hidden = true;
	} else showPlace(target, text);
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
		` · leaf ${session.leafId ?? "(none)"} · ${count(session.entryCount, "entry", "entries")} · set `,
		el("b", {}, set.version),
		` (${set.fingerprint.slice(0, 12)}) · total `,
		el("b", {}, sizeText(total)),
		` · cache-stable prefix ${count(cacheStable.tokens, "token")} (system prompt + ${count(cacheStable.messages, "message")})${usage}`,
		el("br"),
		el("span", { class: "muted" }, `tokens: ${tokenizer.label}`),
	);
	const parts = [...view.systemPrompt.sections, ...view.messages];
	const largest = parts.reduce((m, p) => Math.max(m, p.tokens), 0);
	drawOverview(view);
	const sections = view.systemPrompt.sections.map((s) => {
		const label = sectionPlace(s);
		const header = el(
			"header",
			{ title: label },
			el("span", { class: "name" }, s.name),
			el("button", { type: "button", class: "template" }, where(s.template)),
			bar(s, largest),
			el("span", { class: "size" }, sizeText(s)),
		);
		header.addEventListener("click", () => showPlace({ section: s.name }, label));
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
	fill($("messages"), [
		el("h2", {}, `Messages (${view.messages.length})`),
		...view.messages.map((m) => drawMessage(m, largest)),
	]);
	drawWarnings(view.diagnostics);
	refreshPlace(view);
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
			`${sizeText(m)}${m.images > 0 ? ` · ${count(m.images, "image")}, about ${count(m.imageTokens, "token")}` : ""}${stubText(m)}`,
		),
	);
	const label = messagePlace(m);
	if (label !== undefined)
		header.addEventListener("click", () => showPlace({ message: m.index }, label));
	const classes = `block message kind-${m.kind}${m.framing === undefined ? "" : " framed"}`;
	const attrs = { class: classes, "data-kind": m.kind, id: `message-${m.index}` };
	const plain = m.blocks.every((b) => b.type === "text");
	return el("article", attrs, header, ...(plain ? cutText(m.text) : m.blocks.flatMap(drawBlock)));
}

/** What marks each kind of block, as the command line's text output marks it. */
const BLOCK_LABEL: Record<BlockView["type"], string> = {
	text: "",
	thinking: "thinking",
	toolCall: "tool call",
	image: "image",
	other: "block",
};

/** A content block: text as is; thinking, a tool call (name and arguments), an image marked. */
function drawBlock(b: BlockView): HTMLElement[] {
	if (b.type === "text") return cutText(b.text);
	const label = el(
		"span",
		{ class: "block-label" },
		BLOCK_LABEL[b.type],
		b.name === undefined ? undefined : el("b", {}, b.name),
	);
	const body = b.type === "image" ? [el("span", { class: "muted" }, b.text)] : cutText(b.text);
	return [
		el("div", { class: `content-block block-${b.type}`, "data-block": b.type }, label, ...body),
	];
}

/** Parts of the overview past which they are drawn without separators. */
const DENSE = 150;

/** What each colour of the strip stands for. */
const LEGEND: [kind: string, label: string][] = [
	["harness", "harness"],
	["tools", "tools"],
	["environment", "environment"],
	["lineage", "lineage"],
	["message", "message"],
	["framed", "framed by a template (summary, bash output, tool-result stub)"],
];

/** The strip's legend: its colours, and what a part's width means. */
function drawLegend(view: RenderedView): void {
	const kinds = new Set([
		...view.systemPrompt.sections.map((s) => s.name),
		...view.messages.map((m) => (m.framing === undefined ? "message" : "framed")),
	]);
	$("legend").replaceChildren(
		...LEGEND.filter(([kind]) => kinds.has(kind)).map(([kind, label]) =>
			el("span", { class: "key", "data-kind": kind }, el("i", { class: `seg-${kind}` }), label),
		),
		el(
			"span",
			{ class: "muted" },
			`each part as wide as its share of the ${count(view.total.tokens, "token")}; click one to go to it`,
		),
	);
}

/** One bar for the whole context: a segment per section and message, as long as its tokens. */
function drawOverview(view: RenderedView): void {
	drawLegend(view);
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
	fill($("overview"), [
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
	]);
}

/** The text in a `pre`, cut after {@link SHOWN_LINES} lines with a button for the rest. */
function cutText(text: string): HTMLElement[] {
	const lines = text.split("\n");
	if (lines.length <= SHOWN_LINES + 5) return [el("pre", {}, text)];
	const pre = el("pre", {}, lines.slice(0, SHOWN_LINES).join("\n"));
	const more = el(
		"button",
		{ type: "button", class: "more-lines" },
		`… ${count(lines.length - SHOWN_LINES, "more line")}`,
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

/**
 * The errors that stopped `view`, in place of the prompt. The summary keeps
 * naming the session (and the set, when known) so the page still says what
 * it shows.
 */
export function drawFailure(view: FailedView, session: string, set: string | null): void {
	const failure = $("failure");
	fill(failure, [el("h2", {}, view.title), ...view.diagnostics.map(drawDiagnostic)]);
	failure.hidden = false;
	failure.dataset.kind = view.kind;
	$("summary").replaceChildren(
		"session ",
		el("b", {}, session),
		...(set === null ? [] : [" · set ", el("b", {}, set)]),
	);
	for (const id of ["overview", "legend", "prompt", "messages", "warnings"])
		$(id).replaceChildren();
	$("place").hidden = true;
	placeTarget = undefined;
}

function drawWarnings(diagnostics: DiagnosticView[]): void {
	if (diagnostics.length === 0) {
		$("warnings").replaceChildren();
		return;
	}
	const details = el("details", { class: "warnings" });
	fill(details, [
		el("summary", {}, `${count(diagnostics.length, "warning")} reading the session`),
		...diagnostics.map(drawDiagnostic),
	]);
	$("warnings").replaceChildren(details);
}

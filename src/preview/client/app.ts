/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's script (runs in the browser, served as `/app.js`). It
 * lists sessions a page at a time, renders the chosen session with the chosen
 * template set, and re-renders whenever the server reports a change.
 */
import type {
	ChangeEvent,
	DiagnosticView,
	FailedView,
	MessageView,
	PlaceView,
	RenderedView,
	SessionsPayload,
	SetsPayload,
	Size,
	ViewPayload,
} from "../protocol.js";

const PAGE_SIZE = 100;
/** A message longer than this many lines is shown cut, with a button for the rest. */
const SHOWN_LINES = 40;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state = { session: "", set: "", listed: 0, query: "", request: 0 };

type Child = Node | string | undefined;
function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
	const node = document.createElement(tag);
	for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
	for (const child of children) if (child !== undefined) node.append(child);
	return node;
}

async function getJson<T>(path: string): Promise<T> {
	const response = await fetch(path, { cache: "no-store" });
	if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) {
		throw new Error(`${response.status} ${(await response.text()).trim()}`);
	}
	return (await response.json()) as T;
}

function readHash(): void {
	const params = new URLSearchParams(location.hash.slice(1));
	state.session = params.get("session") ?? "";
	state.set = params.get("set") ?? "";
}

function writeHash(): void {
	const params = new URLSearchParams({ session: state.session, set: state.set });
	history.replaceState(null, "", `#${params}`);
}

// ---- sessions -------------------------------------------------------------

async function listSessions(reset: boolean): Promise<void> {
	if (reset) {
		state.listed = 0;
		$("session-list").replaceChildren();
	}
	const query = new URLSearchParams({
		offset: String(state.listed),
		limit: String(PAGE_SIZE),
		q: state.query,
	});
	const page = await getJson<SessionsPayload>(`/api/sessions?${query}`);
	const list = $("session-list");
	for (const { id } of page.items) {
		const button = el("button", { type: "button", "data-id": id, title: id }, id);
		if (id === state.session) button.setAttribute("aria-current", "true");
		button.addEventListener("click", () => choose(id));
		list.append(el("li", {}, button));
	}
	state.listed += page.items.length;
	$("count").textContent =
		page.matched === page.total
			? `${page.total} session${page.total === 1 ? "" : "s"} in ${page.source}${page.source.endsWith(".jsonl") ? "" : "/"}`
			: `${page.matched} of ${page.total} sessions match`;
	$("more").hidden = state.listed >= page.matched;
	if (state.session === "" && page.items[0] !== undefined) choose(page.items[0].id);
}

function choose(id: string): void {
	state.session = id;
	for (const button of $("session-list").querySelectorAll("button")) {
		button.setAttribute("aria-current", String(button.dataset.id === id));
	}
	writeHash();
	void render();
}

// ---- template sets --------------------------------------------------------

async function listSets(): Promise<void> {
	const { sets } = await getJson<SetsPayload>("/api/sets");
	const select = $<HTMLSelectElement>("set");
	select.replaceChildren(...sets.map((s) => el("option", { value: s.id }, s.label)));
	if (!sets.some((s) => s.id === state.set)) state.set = "";
	select.value = state.set;
}

// ---- rendering ------------------------------------------------------------

async function render(): Promise<void> {
	if (state.session === "") return;
	const request = ++state.request;
	const params = new URLSearchParams({ session: state.session, set: state.set });
	let view: ViewPayload;
	try {
		view = await getJson<ViewPayload>(`/api/view?${params}`);
	} catch (error) {
		view = {
			ok: false,
			generation: Number(document.body.dataset.generation ?? 0),
			kind: "request",
			title: "The server could not answer",
			diagnostics: [{ severity: "error", code: "internal", message: String(error), file: "" }],
		};
	}
	if (request !== state.request) return; // a later request is on its way
	if (view.ok) drawView(view);
	else drawFailure(view);
	document.body.dataset.state = view.ok ? "ok" : `failed-${view.kind}`;
	document.body.dataset.generation = String(view.generation);
	document.body.dataset.session = state.session;
	$("status").textContent = `live · updated ${new Date().toLocaleTimeString()}`;
}

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

function drawView(view: RenderedView): void {
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

function drawFailure(view: FailedView): void {
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

// ---- live updates ---------------------------------------------------------

function listen(): void {
	const events = new EventSource("/events");
	const status = $("status");
	events.addEventListener("open", () => {
		status.className = "status live";
		status.textContent = "live";
	});
	events.addEventListener("error", () => {
		status.className = "status down";
		status.textContent = "disconnected, retrying…";
	});
	events.addEventListener("hello", (event) => {
		// After a reconnect (the server restarted, or missed changes), render again.
		const { generation } = JSON.parse((event as MessageEvent<string>).data) as ChangeEvent;
		const shown = document.body.dataset.generation;
		if (shown !== undefined && shown !== String(generation)) void listSets().then(render);
	});
	events.addEventListener("change", (event) => {
		const change = JSON.parse((event as MessageEvent<string>).data) as ChangeEvent;
		if (change.what === "templates") {
			void listSets().then(render);
		} else {
			if (change.sessions?.includes(state.session) === true) void render();
			if (change.listChanged === true) void listSessions(true);
		}
	});
}

function start(): void {
	readHash();
	$<HTMLSelectElement>("set").addEventListener("change", (event) => {
		state.set = (event.target as HTMLSelectElement).value;
		writeHash();
		void render();
	});
	let typing: number | undefined;
	$<HTMLInputElement>("filter").addEventListener("input", (event) => {
		clearTimeout(typing);
		typing = window.setTimeout(() => {
			state.query = (event.target as HTMLInputElement).value;
			void listSessions(true);
		}, 150);
	});
	$("more").addEventListener("click", () => void listSessions(false));
	listen();
	const chosen = state.session !== "";
	void listSets().then(async () => {
		await listSessions(true); // chooses the first session when none was
		if (chosen) await render();
	});
}

start();

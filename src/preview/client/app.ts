/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's script (runs in the browser, served as `/app.js`). It
 * lists sessions a page at a time (by name, size, date or message count),
 * renders the chosen session with the chosen template set (the old one is
 * shown as loading meanwhile), re-renders whenever the server reports a
 * change; jumping to a message and searching are ./find.ts.
 */
import type {
	ChangeEvent,
	RenderedView,
	SessionItem,
	SessionsPayload,
	SetsPayload,
	ViewPayload,
} from "../protocol.js";
import { $, count, el } from "./dom.js";
import { drawFailure, drawView } from "./draw.js";
import { jump, search } from "./find.js";
import "./replay.js"; // the replay view, which follows what this page shows
import "./eval.js"; // the eval view, likewise

const PAGE_SIZE = 100;

const state = {
	session: "",
	set: "",
	listed: 0,
	query: "",
	sort: "name",
	request: 0,
	/** The set the shown session renders with when none is asked for. */
	sessionSet: null as string | null,
	view: undefined as RenderedView | undefined,
};

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
		sort: state.sort,
	});
	const page = await getJson<SessionsPayload>(`/api/sessions?${query}`);
	const list = $("session-list");
	for (const item of page.items) list.append(el("li", {}, sessionButton(item)));
	state.listed += page.items.length;
	$("count").textContent =
		page.matched === page.total
			? `${count(page.total, "session")} in ${page.source}${page.source.endsWith(".jsonl") ? "" : "/"}`
			: `${page.matched.toLocaleString()} of ${count(page.total, "session")} ${page.matched === 1 ? "matches" : "match"}`;
	if (page.notSearched.length > 0) {
		const [first] = page.notSearched;
		$("count").textContent +=
			` · ${count(page.notSearched.length, "folder")} too deep to search (${first}${page.notSearched.length > 1 ? ", …" : ""})`;
	}
	$("more").hidden = state.listed >= page.matched;
	if (state.session === "" && page.items[0] !== undefined) choose(page.items[0].id);
}

/** A listed session: its name, then its size, date and (when counted) messages. */
function sessionButton({ id, size, mtime, messages }: SessionItem): HTMLElement {
	const date = new Date(mtime);
	const facts = [
		bytes(size),
		`${date.toLocaleDateString()} ${date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`,
		messages === undefined ? undefined : count(messages, "message"),
	].filter((f) => f !== undefined);
	const button = el(
		"button",
		{
			type: "button",
			"data-id": id,
			"data-size": String(size),
			"data-mtime": String(mtime),
			...(messages === undefined ? {} : { "data-messages": String(messages) }),
			title: id,
		},
		el("span", { class: "id" }, id),
		el("span", { class: "facts" }, facts.join(" · ")),
	);
	if (id === state.session) button.setAttribute("aria-current", "true");
	button.addEventListener("click", () => choose(id));
	return button;
}

function bytes(n: number): string {
	if (n < 1024) return count(n, "byte");
	const units = ["KB", "MB", "GB"];
	let value = n / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function choose(id: string): void {
	state.session = id;
	markCurrent();
	writeHash();
	void render();
}

/** The listed session shown is marked as such. */
function markCurrent(): void {
	for (const button of $("session-list").querySelectorAll("button")) {
		button.setAttribute("aria-current", String(button.dataset.id === state.session));
	}
}

// ---- template sets --------------------------------------------------------

async function listSets(): Promise<void> {
	const { sets } = await getJson<SetsPayload>("/api/sets");
	const select = $<HTMLSelectElement>("set");
	select.replaceChildren(...sets.map((s) => el("option", { value: s.id }, s.label)));
	if (!sets.some((s) => s.id === state.set)) state.set = "";
	select.value = state.set;
	labelSessionSet();
}

/** The first choice says which set "the session's set" is for the session shown. */
function labelSessionSet(): void {
	const first = $<HTMLSelectElement>("set").options[0];
	if (first === undefined || first.value !== "") return;
	first.textContent =
		state.sessionSet === null ? "the session's set" : `the session's set (${state.sessionSet})`;
}

// ---- rendering ------------------------------------------------------------

/** The session and set last asked for (a re-rendering of them is not a loading). */
let shown = "";

/** The session the page last scrolled to the top of. */
let openedAtTop = "";

async function render(): Promise<void> {
	if (state.session === "") return;
	const request = ++state.request;
	// Another session or set: the one shown is no longer current until the new one arrives.
	const asked = `${state.session}\n${state.set}`;
	if (shown !== asked) {
		if (document.body.dataset.session !== state.session) {
			state.sessionSet = null;
			labelSessionSet();
		}
		shown = asked;
		document.body.dataset.state = "loading";
		document.body.dataset.session = state.session;
		$("loading").textContent =
			`Loading ${state.session}${state.set === "" ? "" : ` with set ${state.set}`}…`;
	}
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
	state.view = view.ok ? view : undefined;
	if (view.ok) {
		drawView(view);
		state.sessionSet = view.set.sessionSet;
		labelSessionSet();
		search("stay", state.view !== undefined);
	} else drawFailure(view, state.session, state.set === "" ? state.sessionSet : state.set);
	// Another session opens at its top; the same one, redrawn (a template saved), stays where it was.
	if (openedAtTop !== state.session) {
		window.scrollTo(0, 0);
		openedAtTop = state.session;
	}
	document.body.dataset.state = view.ok ? "ok" : `failed-${view.kind}`;
	document.body.dataset.generation = String(view.generation);
	document.body.dataset.session = state.session;
	showStatus(view);
}

/** The view last drawn, for the status once the connection is back. */
let drawn: ViewPayload | undefined;

/** Live, and whether what is shown renders: a set that fails to build says so, with its first error. */
function showStatus(view: ViewPayload): void {
	drawn = view;
	const status = $("status");
	const time = new Date().toLocaleTimeString();
	if (view.ok || view.kind === "request") {
		status.className = "status live";
		status.textContent = `live · updated ${time}`;
		status.removeAttribute("title");
		return;
	}
	const [first] = view.diagnostics;
	const where = first === undefined ? "" : [first.file, first.line].filter((p) => p).join(":");
	const error = first === undefined ? "" : `: ${where === "" ? "" : `${where}: `}${first.message}`;
	const what = view.kind === "templates" ? "the set fails to build" : "the session does not load";
	status.className = "status live failing";
	status.textContent = `live · ${what}${error.split("\n")[0]}`;
	status.title = `${what}${error} (${time})`;
}
// ---- live updates ---------------------------------------------------------

function listen(): void {
	const events = new EventSource("/events");
	const status = $("status");
	events.addEventListener("open", () => {
		if (drawn !== undefined) return showStatus(drawn);
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
			// A changed session may move in any order but by name.
			const moved = state.sort !== "name" && (change.sessions?.length ?? 0) > 0;
			if (change.listChanged === true || moved) void listSessions(true);
		}
	});
}

/**
 * The bars that stay at the top (the header, the find bar, the location
 * box) measured as they are drawn, wrapped to any number of lines: each
 * sticks below the one before, and a part jumped to lands below them all.
 */
function trackStickyBars(): void {
	const top = document.querySelector<HTMLElement>(".top");
	const find = document.querySelector<HTMLElement>(".find");
	const place = $("place");
	const update = () => {
		const style = document.documentElement.style;
		const below = top?.offsetHeight ?? 0;
		const findHeight = find?.offsetHeight ?? 0; // 0 while hidden
		style.setProperty("--find-top", `${below}px`);
		style.setProperty("--place-top", `${below + findHeight}px`);
		style.setProperty("--stuck-bottom", `${below + findHeight + place.offsetHeight}px`);
	};
	const observer = new ResizeObserver(update);
	for (const bar of [top, find, place]) if (bar !== null) observer.observe(bar);
	update();
}

function start(): void {
	readHash();
	trackStickyBars();
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
	$<HTMLSelectElement>("sort").addEventListener("change", (event) => {
		state.sort = (event.target as HTMLSelectElement).value;
		void listSessions(true);
	});
	$("jump").addEventListener("submit", (event) => {
		event.preventDefault();
		jump($<HTMLInputElement>("jump-to").value, state.view?.messages.length ?? 0);
	});
	let searching: number | undefined;
	$<HTMLInputElement>("search").addEventListener("input", () => {
		clearTimeout(searching);
		searching = window.setTimeout(() => search("refine", state.view !== undefined), 200);
	});
	$<HTMLInputElement>("search").addEventListener("keydown", (event) => {
		if (event.key !== "Enter") return;
		event.preventDefault();
		clearTimeout(searching);
		search(event.shiftKey ? "previous" : "next", state.view !== undefined);
	});
	$("search-next").addEventListener("click", () => search("next", state.view !== undefined));
	$("search-previous").addEventListener("click", () =>
		search("previous", state.view !== undefined),
	);
	// A link or an edited address names another session or set: show it.
	window.addEventListener("hashchange", () => {
		readHash();
		markCurrent();
		$<HTMLSelectElement>("set").value = state.set;
		void render();
	});
	listen();
	const chosen = state.session !== "";
	void listSets().then(async () => {
		await listSessions(true); // chooses the first session when none was
		if (chosen) await render();
	});
}

start();

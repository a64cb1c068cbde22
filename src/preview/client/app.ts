/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's script (runs in the browser, served as `/app.js`). It
 * lists sessions a page at a time, renders the chosen session with the chosen
 * template set, and re-renders whenever the server reports a change.
 */
import type { ChangeEvent, SessionsPayload, SetsPayload, ViewPayload } from "../protocol.js";
import { $, el } from "./dom.js";
import { drawFailure, drawView } from "./draw.js";
import "./replay.js"; // the replay view, which follows what this page shows

const PAGE_SIZE = 100;

const state = { session: "", set: "", listed: 0, query: "", request: 0 };

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

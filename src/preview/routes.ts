/**
 * The preview's routes: a fixed table from path to answer. No route maps a
 * path to a file, so no request can reach one; sessions are named by the
 * catalogue's ids.
 */

import { type EvalSource, evalView } from "./eval-view.js";
import { INDEX_HTML, STYLE_CSS } from "./page.js";
import {
	SESSION_SORTS,
	type SessionSort,
	type SessionsPayload,
	type SetsPayload,
} from "./protocol.js";
import { renderView } from "./render.js";
import { type ReplaySource, replayView } from "./replay-view.js";
import type { SessionCatalog } from "./sessions.js";
import type { Workspace } from "./workspace.js";

/** The most sessions listed in one answer. */
const MAX_PAGE = 500;

/** The page's script modules (`app.js` imports the others). */
export const CLIENT_MODULES = [
	"app.js",
	"draw.js",
	"dom.js",
	"find.js",
	"replay.js",
	"eval.js",
] as const;

/** A complete answer: a status and a body. */
export interface Answer {
	status: number;
	type: string;
	body: string;
}

/** An answer, or the event stream. */
export type Reply = Answer | "events";

export interface RouteContext {
	catalog: SessionCatalog;
	workspace: Workspace;
	/** The page's script modules by path (`/app.js`…), as built. */
	scripts: ReadonlyMap<string, string>;
	/** What replays a session for the replay view (none: the view says it is not available). */
	replay?: ReplaySource;
	/** An eval report for the eval view (none: the view stays empty). */
	eval?: EvalSource;
}

/** The answer to a GET of `url`. */
export function route(url: URL, context: RouteContext): Reply {
	const { catalog, workspace, scripts, replay } = context;
	const query = (name: string) => url.searchParams.get(name) ?? "";
	switch (url.pathname) {
		case "/":
			return ok("text/html", INDEX_HTML);
		case "/style.css":
			return ok("text/css", STYLE_CSS);
		case "/favicon.ico":
			return { status: 204, type: "text/plain", body: "" };
		case "/events":
			return "events";
		case "/api/sets":
			return json(200, {
				generation: workspace.generation,
				sets: workspace.choices(),
			} satisfies SetsPayload);
		case "/api/sessions": {
			const offset = clampInt(query("offset"), 0, Number.MAX_SAFE_INTEGER, 0);
			const limit = clampInt(query("limit"), 1, MAX_PAGE, 100);
			return json(200, {
				...catalog.page(offset, limit, query("q"), sortOf(query("sort"))),
				source: catalog.single ? catalog.label : workspace.show(catalog.target),
			} satisfies SessionsPayload);
		}
		case "/api/view": {
			const view = renderView(workspace, catalog, query("session"), query("set"));
			return json(!view.ok && view.kind === "request" ? 404 : 200, view);
		}
		case "/api/eval":
			return json(200, evalView(catalog, query("session"), context.eval, workspace.cwd));
		case "/api/replay":
			return json(200, replayView(workspace, catalog, query("session"), query("set"), replay));
		default: {
			const script = scripts.get(url.pathname);
			if (script !== undefined) return ok("text/javascript", script);
			return url.pathname === "/app.js"
				? text(404, "the page script is not built (npm run build)\n")
				: text(404, "not found\n");
		}
	}
}

/** A plain-text answer. */
export function text(status: number, body: string): Answer {
	return { status, type: "text/plain", body };
}

function ok(type: string, body: string): Answer {
	return { status: 200, type, body };
}

function json(status: number, value: unknown): Answer {
	return { status, type: "application/json", body: JSON.stringify(value) };
}

/** The sort asked for; name when none or an unknown one is. */
function sortOf(value: string): SessionSort {
	return (SESSION_SORTS as readonly string[]).includes(value) ? (value as SessionSort) : "name";
}

function clampInt(value: string, min: number, max: number, fallback: number): number {
	const n = Number.parseInt(value, 10);
	return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

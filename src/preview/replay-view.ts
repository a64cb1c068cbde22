/**
 * The preview's replay view, server side: the selected session's model
 * calls replayed with the selected set, shaped for the page's chart (per
 * call the cached, new and output tokens, and the prompt the provider
 * recorded when the log has it). Served as `/api/replay`. The replaying
 * itself is handed in by whoever starts the server (the command line
 * passes `replay`'s), so this tool depends on no other.
 */

import type { Units } from "../measure/units.js";
import type { TemplateRegistry } from "../templates/registry.js";
import type { SessionCatalog } from "./sessions.js";
import type { Workspace } from "./workspace.js";

/** One call's bar. */
export interface ReplayBar {
	index: number;
	entryId: string;
	model: string | null;
	cached: number;
	fresh: number;
	output: number | null;
	/** input + cacheRead + cacheWrite as the log recorded them; null when it did not. */
	recorded: number | null;
}

/** What `/api/replay` answers: the chart's data, or why there is none. */
export type ReplayPayload =
	| {
			ok: true;
			set: string;
			calls: ReplayBar[];
			total: { calls: number; contextTokens: number; cachedTokens: number; newTokens: number };
			fit: { calls: number; correlation: number | null; ratio: number | null } | null;
	  }
	| { ok: false; error: string };

/**
 * What replays a session for the page: its log, the set (`""`: its own),
 * the sets' registry, the tokenizer, and the tools in place of its own.
 */
export type ReplaySource = (request: {
	file: string;
	setId: string;
	registry: TemplateRegistry;
	units: Units;
	tools?: readonly string[];
}) => ReplayPayload;

/** The replay of session `sessionId` with set `setId`, by `source` (none: the view is not available). */
export function replayView(
	workspace: Workspace,
	catalog: SessionCatalog,
	sessionId: string,
	setId: string,
	source: ReplaySource | undefined,
): ReplayPayload {
	if (source === undefined) return { ok: false, error: "this server was started without replay" };
	const entry = catalog.get(sessionId);
	if (entry === undefined) return { ok: false, error: "no session with this id" };
	return source({
		file: entry.file,
		setId,
		registry: workspace.current.registry,
		units: workspace.units,
		...(workspace.overrides.tools === undefined ? {} : { tools: workspace.overrides.tools }),
	});
}

/**
 * The preview's replay view, server side: the selected session's model
 * calls replayed with the selected set (`replay`'s numbers), shaped for the
 * page's chart: per call the cached, new and output tokens, and the prompt
 * the provider recorded when the log has it. Served as `/api/replay`.
 */

import { recordedPrompt } from "../replay/fit.js";
import { readPrices } from "../replay/prices.js";
import { Replayer } from "../replay/replay.js";
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

export type ReplayPayload =
	| {
			ok: true;
			set: string;
			calls: ReplayBar[];
			total: { calls: number; contextTokens: number; cachedTokens: number; newTokens: number };
			fit: { calls: number; correlation: number | null; ratio: number | null } | null;
	  }
	| { ok: false; error: string };

/** The replay of session `sessionId` with set `setId` (`""`: the one it pins). */
export function replayView(
	workspace: Workspace,
	catalog: SessionCatalog,
	sessionId: string,
	setId: string,
): ReplayPayload {
	const entry = catalog.get(sessionId);
	if (entry === undefined) return { ok: false, error: "no session with this id" };
	const registry = workspace.current.registry;
	const side =
		setId === "" ? { templates: registry.dir } : { templates: registry.dir, version: setId };
	let replayed: ReturnType<Replayer["replay"]>;
	try {
		replayed = new Replayer({ side }, workspace.tokenizer, readPrices(), { registry }).replay(
			entry.file,
		);
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	}
	if (replayed.error !== undefined) return { ok: false, error: replayed.error };
	const { total } = replayed;
	return {
		ok: true,
		set: replayed.set,
		calls: replayed.calls.map((c) => ({
			index: c.index,
			entryId: c.entryId,
			model: c.model,
			cached: c.cachedTokens,
			fresh: c.newTokens,
			output: c.outputTokens,
			recorded: recordedPrompt(c.recorded),
		})),
		total: {
			calls: total.calls,
			contextTokens: total.contextTokens,
			cachedTokens: total.cachedTokens,
			newTokens: total.newTokens,
		},
		fit: replayed.recordedFit,
	};
}

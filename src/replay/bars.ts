/**
 * A session's replay shaped for a chart (the preview page's replay view):
 * per call the cached, new and output tokens and the recorded prompt, with
 * the totals and the fit. The sets come from the caller's registry (the
 * preview's working copy of the templates); a failure is the answer's
 * `error`, never a throw.
 */

import type { Units } from "../measure/units.js";
import type { TemplateRegistry } from "../templates/registry.js";
import type { Tokenizer } from "../text/tokenizer.js";
import { type Fit, recordedPrompt } from "./fit.js";
import { Prices } from "./prices.js";
import { Replayer } from "./replay.js";

/** The chart's data, or why the session could not be replayed. */
export type ReplayBars =
	| {
			ok: true;
			set: string;
			calls: {
				index: number;
				entryId: string;
				model: string | null;
				cached: number;
				fresh: number;
				output: number | null;
				recorded: number | null;
			}[];
			total: { calls: number; contextTokens: number; cachedTokens: number; newTokens: number };
			fit: Fit | null;
	  }
	| { ok: false; error: string };

let prices: Prices | undefined;

/** The replay of `file` with set `setId` (`""`: the one it pins) of `registry`'s folder, `tools` in place of its own. */
export function replayBars(request: {
	file: string;
	setId: string;
	registry: TemplateRegistry;
	units: Units | Tokenizer;
	tools?: readonly string[];
}): ReplayBars {
	const { registry, tools } = request;
	const side =
		request.setId === ""
			? { templates: registry.dir }
			: { templates: registry.dir, version: request.setId };
	let replayed: ReturnType<Replayer["replay"]>;
	try {
		prices ??= new Prices();
		const options = { registry, ...(tools === undefined ? {} : { tools }) };
		replayed = new Replayer({ side }, request.units, prices, options).replay(request.file);
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

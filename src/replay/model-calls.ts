/**
 * The model calls of a session's branch, as replay's report and eval number
 * them: its assistant messages, but one written in a model's place (see
 * ./bill.ts's `inModelsPlace`), each with the model and provider that
 * answered (the message's, else the header's) and its date, from 0.
 */
import type { TemplateSet } from "../templates/set.js";
import { inModelsPlace } from "./bill.js";
import type { Prices } from "./prices.js";
import type { CallContext, SessionWalk } from "./walk.js";

/** One model call of the branch. */
export interface ModelCall {
	call: CallContext;
	/** Its place among the branch's model calls, from 0. */
	index: number;
	model: string | null;
	provider: string | undefined;
	/** When it was made: the message's timestamp, else the session's start. */
	date: number | string;
	/** Whether a price for its model is known (the table's, a glob's included, or the database's). */
	priced: boolean;
}

/** The model calls of `walk` under `set`, in branch order. */
export function* modelCalls(
	walk: SessionWalk,
	set: TemplateSet,
	prices: Prices,
): Generator<ModelCall> {
	let index = 0;
	for (const call of walk.walk(set)) {
		const { model, provider } = modelOf(call, walk);
		const date =
			typeof call.answer.timestamp === "number" ? call.answer.timestamp : walk.header.timestamp;
		const priced = model !== null && prices.knows(provider, model, date);
		// A glob prices anything: whether a model answered, only a price by its name tells.
		const named = priced && prices.knows(provider, model, date, { byName: true });
		if (inModelsPlace(call.answer, named)) continue;
		yield { call, index: index++, model, provider, date, priced };
	}
}

function modelOf(
	call: CallContext,
	walk: SessionWalk,
): { model: string | null; provider: string | undefined } {
	const a = call.answer;
	const h = walk.header as { provider?: unknown; modelId?: unknown };
	const model =
		typeof a.model === "string" ? a.model : typeof h.modelId === "string" ? h.modelId : null;
	const provider =
		typeof a.provider === "string"
			? a.provider
			: typeof h.provider === "string"
				? h.provider
				: undefined;
	return { model, provider };
}

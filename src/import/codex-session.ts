/**
 * Codex's session records: the header (`session_meta`, or the bare first
 * line of the pre-2025-09 layout; a later `session_meta` is a resumed or
 * forked rollout's, kept) and `turn_context` (a model or effort change).
 */

import type { CodexState } from "./codex-state.js";
import { customEntry, entry, header, isoTime } from "./entries.js";
import { type Obj, obj, str } from "./records.js";

/** The first line of a pre-envelope rollout: the header. */
export function legacyHeader(run: CodexState, value: Obj, line: number): void {
	run.head = header(str(value, "id") ?? "", run.time, "");
	run.push(customEntry("codex/session_meta", `cx-${line}`, run.tip, run.time, value), line);
	run.acc.mapped("header (pre-envelope)");
}

/** `session_meta`: the header the first time, a fork or resumed rollout's record after. */
export function sessionMeta(run: CodexState, payload: Obj, line: number): void {
	const fork = str(payload, "forked_from_id") ?? str(payload, "parent_thread_id");
	if (run.head === undefined) {
		run.head = header(
			str(payload, "id") ?? "",
			isoTime(payload.timestamp, run.time),
			str(payload, "cwd") ?? "",
			fork === undefined ? {} : { parentSession: fork },
		);
		run.provider = str(payload, "model_provider") ?? run.provider;
		run.push(customEntry("codex/session_meta", `cx-${line}`, run.tip, run.time, payload), line);
		run.acc.mapped("session_meta");
		return;
	}
	if (fork !== undefined) run.forks.push({ id: payload.id ?? null, from: fork, line });
	run.keep("session_meta", payload, line);
}

/** `turn_context`: a new model becomes `model_change`, a new effort `thinking_level_change`. */
export function turnContext(run: CodexState, payload: Obj, line: number): void {
	const collab = obj(payload, "collaboration_mode");
	const model = str(payload, "model") ?? str(obj(collab ?? {}, "settings") ?? {}, "model");
	if (model !== undefined && model !== run.model) {
		run.model = model;
		run.push(
			entry("model_change", `cx-${line}-model`, run.tip, run.time, {
				provider: run.provider,
				modelId: model,
			}),
			line,
		);
	}
	const effort = str(payload, "effort");
	if (effort !== undefined && effort !== run.effort) {
		run.effort = effort;
		run.push(
			entry("thinking_level_change", `cx-${line}-effort`, run.tip, run.time, {
				thinkingLevel: effort,
			}),
			line,
		);
	}
	run.acc.mapped("turn_context");
}

/**
 * The preview's eval view, server side: an eval report's runs for the
 * session the page shows, per call the answer beside what the session did,
 * and which calls flipped between the two sets. Served as `/api/eval`. The
 * report is read and checked by whoever starts the server (the command line,
 * `preview --eval FILE`), so this tool depends on no other; its paths are
 * matched to the session's file as given, from the working directory, or
 * by name.
 */
import { basename, resolve } from "node:path";
import type { SessionCatalog } from "./sessions.js";

/** A tool call as a report lists it. */
export interface EvalToolCall {
	name: string;
	arguments: unknown;
}

/** One run of a report, what the page shows of it. */
export interface EvalRunRow {
	file: string;
	index: number;
	set: string;
	sample: number;
	answer: { text: string; toolCalls: EvalToolCall[] } | null;
	recorded: { text: string; toolCalls: EvalToolCall[] };
	sameAsRecorded: { tool: boolean; arguments: boolean } | null;
	assertions: { name: string; pass: boolean; reason: string }[];
	error: string | null;
}

/** An eval report, what the page shows of it. */
export interface EvalSource {
	/** The report's file, for the page. */
	file: string;
	model: string;
	runs: EvalRunRow[];
	flips: { file: string; index: number; sample: number }[];
}

/** What `/api/eval` answers. */
export type EvalPayload =
	| { ok: true; file: string; model: string; runs: (EvalRunRow & { flip: boolean })[] }
	| { ok: false; error: string };

/** The runs of `source` for session `sessionId`, in call order, flips marked. */
export function evalView(
	catalog: SessionCatalog,
	sessionId: string,
	source: EvalSource | undefined,
	cwd: string,
): EvalPayload {
	if (source === undefined) return { ok: false, error: "no eval report (preview --eval FILE)" };
	const entry = catalog.get(sessionId);
	if (entry === undefined) return { ok: false, error: "no session with this id" };
	const exact = (file: string) => resolve(cwd, file) === resolve(entry.file);
	const matches = source.runs.some((r) => exact(r.file))
		? exact
		: (file: string) => basename(file) === basename(entry.file);
	const flipped = new Set(
		source.flips.filter((f) => matches(f.file)).map((f) => `${f.index}:${f.sample}`),
	);
	const runs = source.runs
		.filter((r) => matches(r.file))
		.sort((a, b) => a.index - b.index || a.sample - b.sample)
		.map((r) => ({ ...r, flip: flipped.has(`${r.index}:${r.sample}`) }));
	return { ok: true, file: source.file, model: source.model, runs };
}

/**
 * What `eval --dry-run` gives: every request a run would send, in the
 * report's order, without a session's context written again at each of its
 * calls (each call's context holds the last one's, so whole bodies grow with
 * the square of a session's length). A session's first request under a set is
 * whole; each later one under that set is the difference from the one before
 * it: how many of that one's messages it begins with (`prefix`), the other
 * body fields it has unchanged (`same`), and in `body` the messages after
 * the prefix and every field that changed. Nothing is left out: the body is
 * exactly `same`'s fields of the previous request, `body`'s fields, and
 * `messages` the previous request's first `prefix` messages followed by
 * `body.messages`.
 */
import { isDeepStrictEqual } from "node:util";
import type { PreparedCall } from "./contexts.js";
import type { RequestBody } from "./settings.js";

/** One request as `--dry-run` writes it. */
export interface DryRequest {
	file: string;
	index: number;
	entryId: string;
	set: string;
	/** Its input tokens, as the estimate counts them. */
	inputTokens: number;
	/** The call index of the session's request under this set it is written against; absent: written whole. */
	previous?: number;
	/** How many of the previous request's messages it begins with. */
	prefix?: number;
	/** The previous request's fields it has unchanged, which `body` leaves out. */
	same?: string[];
	/** The body; after a previous request, only its new messages and changed fields. */
	body: RequestBody;
}

/** The body field a later request gives only the new end of. */
const MESSAGES = "messages";

/**
 * A session's calls (in order) as dry requests, each later request of a set
 * against the one before it; only that one is kept, so a caller that
 * consumes them as they come holds one body per set at a time.
 */
export function* dryRequests(calls: Iterable<PreparedCall>): Generator<DryRequest> {
	const last = new Map<string, { index: number; body: RequestBody }>();
	for (const call of calls) {
		for (const request of call.requests) {
			const before = last.get(request.set);
			last.set(request.set, { index: call.index, body: request.body });
			const head = {
				file: call.file,
				index: call.index,
				entryId: call.entryId,
				set: request.set,
				inputTokens: request.inputTokens,
			};
			yield before === undefined
				? { ...head, body: request.body }
				: { ...head, previous: before.index, ...difference(before.body, request.body) };
		}
	}
}

/** `body` written against `before`: its shared prefix of messages, its unchanged fields, the rest. */
function difference(
	before: RequestBody,
	body: RequestBody,
): { prefix: number; same: string[]; body: RequestBody } {
	const same: string[] = [];
	const changed: RequestBody = {};
	for (const [key, value] of Object.entries(body)) {
		if (key === MESSAGES) continue;
		if (Object.hasOwn(before, key) && isDeepStrictEqual(before[key], value)) same.push(key);
		else changed[key] = value;
	}
	const from = arrayOf(before[MESSAGES]);
	const to = arrayOf(body[MESSAGES]);
	let prefix = 0;
	while (prefix < from.length && prefix < to.length && isDeepStrictEqual(from[prefix], to[prefix]))
		prefix++;
	return { prefix, same, body: { ...changed, [MESSAGES]: to.slice(prefix) } };
}

function arrayOf(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value : [];
}

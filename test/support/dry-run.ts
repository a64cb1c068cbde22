/**
 * `eval --dry-run`'s lines read back into whole requests, by the rule its
 * docs give (docs/eval.md): a line with no `previous` is whole; a later one
 * is the previous request of its session and set with `same`'s fields, its
 * own `body` fields, and that request's first `prefix` messages followed by
 * its own. What a reader of the output would do, so a test can hold the
 * result against what `render` prints and `eval` sends.
 */
import type { DryRequest } from "../../src/eval/dry-run.js";

/** A request made whole again. */
export interface WholeRequest {
	file: string;
	index: number;
	entryId: string;
	set: string;
	body: Record<string, unknown>;
}

/** The lines of `--dry-run`'s output, parsed. */
export function dryLines(text: string): DryRequest[] {
	return text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as DryRequest);
}

/** Every request of `lines` made whole, in their order; a line that names a request not before it throws. */
export function rebuild(lines: readonly DryRequest[]): WholeRequest[] {
	const last = new Map<string, WholeRequest>();
	return lines.map((line) => {
		const key = `${line.file}\u0000${line.set}`;
		const before = last.get(key);
		let body = line.body;
		if (line.previous !== undefined) {
			if (before?.index !== line.previous)
				throw new Error(`${line.file} call ${line.index}: no request ${line.previous} before it`);
			const kept = Object.fromEntries((line.same ?? []).map((k) => [k, before.body[k]]));
			const messages = (before.body.messages as unknown[]).slice(0, line.prefix);
			body = {
				...kept,
				...line.body,
				messages: [...messages, ...(line.body.messages as unknown[])],
			};
		}
		const whole = {
			file: line.file,
			index: line.index,
			entryId: line.entryId,
			set: line.set,
			body,
		};
		last.set(key, whole);
		return whole;
	});
}

/**
 * Where a message too deeply nested to send comes from. `JSON.stringify`
 * recurses, and a value nested some thousands deep (a tool's `details`, a
 * call's arguments) overflows the stack: the reply cannot be written, and
 * the client is told which file, line and entry hold the message instead.
 * Looked up only then, so a reply that serializes costs nothing more: the
 * first message of the bundle that does not serialize is found, and the log
 * is scanned for its entry's line.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { ContextBundle } from "../service/bundle.js";
import type { Format } from "./protocol.js";

/** The message and its entry. */
export interface DeepMessage {
	/** Its index in the bundle's messages. */
	index: number;
	entryId: string;
	/** The entry's line in the log (absent when the log is not in the session format: an import). */
	line?: number;
}

/** Whether `value` serializes; false only for a stack overflow (a value nested too deeply). */
export function serializes(value: unknown): boolean {
	try {
		JSON.stringify(value);
		return true;
	} catch (error) {
		if (error instanceof RangeError) return false;
		throw error;
	}
}

/**
 * The first message of `bundle` that does not serialize in `format`
 * (`convert` gives a message's llm form), with its entry and line; undefined
 * when every one does.
 */
export async function findDeepMessage(
	bundle: ContextBundle,
	format: Format,
	convert: (index: number) => unknown,
): Promise<DeepMessage | undefined> {
	for (let index = 0; index < bundle.messages.length; index++) {
		const message = format === "agent" ? bundle.messages[index] : convert(index);
		if (serializes(message)) continue;
		const entryId = bundle.entryIds[index] as string;
		const line = await lineOfEntry(bundle.meta.file, entryId);
		return { index, entryId, ...(line === undefined ? {} : { line }) };
	}
	return undefined;
}

/** The line of the entry `id` in the log `file` (the last one: a later entry wins an id). */
async function lineOfEntry(file: string, id: string): Promise<number | undefined> {
	const lines = createInterface({
		input: createReadStream(file),
		crlfDelay: Number.POSITIVE_INFINITY,
	});
	const quoted = JSON.stringify(id);
	let found: number | undefined;
	let line = 0;
	for await (const text of lines) {
		line++;
		if (!text.includes(quoted)) continue;
		try {
			const value = JSON.parse(text) as { type?: unknown; id?: unknown };
			if (value.id === id && value.type !== "session") found = line;
		} catch {
			// A damaged line holds no entry: the reader skipped it too.
		}
	}
	return found;
}

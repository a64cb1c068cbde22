/**
 * The bundle for people (`render --format text`): a header, the system
 * prompt, then each message headed with its index, its role, its entry id
 * and its size, shown as the model gets it (framed messages through their
 * framing). Long tool results and command output are cut to their first
 * lines ("… N more lines"), unless `full`. Separators are box-drawing
 * lines, which no diff line starts with.
 *
 * Total over any JSON value: a field of the wrong type is printed as JSON,
 * nesting is walked without recursion and cut past a depth, every control
 * character is escaped, and the text is written a message at a time, so no
 * log is too large to print.
 */

import type { ContextBundle } from "../service/bundle.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { asText, contentOf } from "../text/content.js";
import { escapeControl, escapeLine } from "../text/terminal.js";

export interface TextOptions {
	/** Show tool results and command output whole. */
	full?: boolean;
	/** Lines of a long tool result shown before it is cut (default 20). */
	maxLines?: number;
	/** Characters of a long tool result shown before it is cut (default 4,000). */
	maxChars?: number;
}

/** Tool-call arguments nested deeper than this print as a cut marker. */
export const TEXT_MAX_DEPTH = 64;

const RULE = "═".repeat(8);
const THIN = "─".repeat(4);

/**
 * Writes the text rendering of `bundle` to `write`, a part at a time;
 * `convert` gives each message as the model gets it (`service.converter`).
 */
export function writeText(
	bundle: ContextBundle,
	convert: (index: number) => LlmMessage | undefined,
	write: (text: string) => void,
	options: TextOptions = {},
): void {
	const { meta } = bundle;
	const model = meta.model === null ? "unknown" : `${meta.model.provider}/${meta.model.modelId}`;
	write(
		`${[
			`session ${meta.sessionId} · leaf ${meta.leafId ?? "(none)"} · ${meta.entryCount} entries`,
			`templates ${meta.templateVersion} (${meta.templateFingerprint.slice(0, 12)}) · model ${model} · thinking ${meta.thinkingLevel ?? "unknown"}`,
		]
			.map((l) => `# ${escapeLine(l)}`)
			.join("\n")}\n\n`,
	);
	write(`${RULE} system prompt · ${count(bundle.systemPrompt.length, "char")} ${RULE}\n`);
	write(`${escapeControl(bundle.systemPrompt)}\n\n`);
	write(`${RULE} messages · ${bundle.messages.length} ${RULE}\n`);
	const stubs = new Map((meta.virtualized ?? []).map((v) => [v.index, v]));
	bundle.messages.forEach((message, index) => {
		const entryId = bundle.entryIds[index];
		write(formatMessage(message, convert(index), index, entryId, options, stubs.get(index)));
	});
}

/** The text rendering as one string (for bundles known to be small). */
export function formatText(
	bundle: ContextBundle,
	convert: (index: number) => LlmMessage | undefined,
	options: TextOptions = {},
): string {
	const parts: string[] = [];
	writeText(bundle, convert, (t) => parts.push(t), options);
	return parts.join("");
}

/** One message: its header line, then its text as the model gets it (`stub`: the result it stands for). */
export function formatMessage(
	message: ContextMessage,
	llm: LlmMessage | undefined,
	index: number,
	entryId: string | undefined,
	options: TextOptions = {},
	stub?: { chars: number },
): string {
	const role = asText(message.role);
	const tool =
		message.role === "toolResult" ? ` ${asText((message as { toolName?: unknown }).toolName)}` : "";
	const framed = llm !== undefined && llm.role !== message.role ? ` → ${llm.role}` : "";
	if (llm === undefined) {
		const head = `${THIN} #${index} ${role} · entry ${entryId ?? "?"} · not sent: excluded from the context ${THIN}`;
		return `\n${escapeLine(head)}\n`;
	}
	const body = blocksText(llm.content);
	const cut = cutLong(
		body,
		message.role === "toolResult" || message.role === "bashExecution",
		options,
	);
	const size = `${count(body.length, "char")}${body.includes("\n") ? `, ${count(lineCount(body), "line")}` : ""}`;
	const whole = stub === undefined ? "" : ` · stub of ${count(stub.chars, "char")}`;
	const head = `${THIN} #${index} ${role}${tool}${framed} · entry ${entryId ?? "?"} · ${size}${whole} ${THIN}`;
	return `\n${escapeLine(head)}\n${escapeControl(cut)}\n`;
}

/** The content of a provider-ready message as text for people, one block after another. */
export function blocksText(content: unknown): string {
	return contentOf(content, { labelled: true, maxDepth: TEXT_MAX_DEPTH }).text;
}

function cutLong(text: string, long: boolean, options: TextOptions): string {
	if (!long || options.full === true) return text;
	const maxLines = options.maxLines ?? 20;
	const maxChars = options.maxChars ?? 4000;
	// The end of the last line shown: the `maxLines`-th line break, or the end.
	let end = text.length;
	for (let shown = 0, from = 0; shown < maxLines; shown++) {
		const nl = text.indexOf("\n", from);
		if (nl === -1) break;
		end = nl;
		from = nl + 1;
		if (shown + 1 === maxLines) break;
		end = text.length;
	}
	end = Math.min(end, maxChars);
	if (end >= text.length) return text;
	const rest = text.slice(end);
	const more = rest.startsWith("\n") ? lineCount(rest.slice(1)) : lineCount(rest);
	const note =
		rest.startsWith("\n") || more > 1
			? `… ${count(more, "more line")}`
			: `… ${count(rest.length, "more character")}`;
	return `${text.slice(0, end)}\n${note} (--full shows all)`;
}

function lineCount(text: string): number {
	if (text === "") return 0;
	let n = 1;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
	return n;
}

function count(n: number, noun: string): string {
	return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

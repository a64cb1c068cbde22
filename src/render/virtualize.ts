/**
 * Virtualized tool results. A tool result over the set's threshold reaches
 * the model as a stub, rendered by the set's `tool-result-stub` template,
 * that names the entry and how to read the rest back
 * (`session_tool_result`, `session_tool_result_grep`). The log keeps the
 * whole result; only the provider-ready form changes.
 *
 * Prefix-stable by construction: the decision reads nothing but the result
 * itself and the pinned set's policy, never what came after it, so
 * appending entries never changes an earlier message.
 */
import type { ToolResultStubView, VirtualizePolicy } from "../view/stub.js";

type Block = { type: string; [key: string]: unknown };

/** A tool result as the decision reads it. */
export interface ToolResultLike {
	toolCallId: string;
	toolName: string;
	content: unknown;
	isError?: unknown;
}

export interface Virtualization {
	view: ToolResultStubView;
	/** The image blocks that stay beside the stub text. */
	keptImages: Block[];
	/** The result's text, as the decision read it (text blocks joined by a line break). */
	text: string;
}

/**
 * The stub of `result` under `policy`, or undefined when it stays whole.
 * `count` gives o200k tokens; it is called only when the size cannot be
 * decided without it (a text of n UTF-8 bytes has at most n tokens).
 * `force` builds the stub whatever the size (for a decision already taken).
 */
export function virtualize(
	result: ToolResultLike,
	entryId: string,
	policy: VirtualizePolicy,
	count: (text: string) => number,
	force = false,
): Virtualization | undefined {
	const { text, images } = parts(result.content);
	const imageSize = policy.countImages ? images.length * policy.imageSize : 0;
	const under = (size: number) => !force && size <= policy.threshold;
	let size: number;
	let bytes: number | undefined;
	if (policy.unit === "chars") {
		size = text.length + imageSize;
		if (under(size)) return undefined;
	} else {
		// A token covers at least one byte, and a character at most three bytes (four for a pair).
		if (under(text.length * 3 + imageSize)) return undefined;
		bytes = Buffer.byteLength(text, "utf8");
		if (under(bytes + imageSize)) return undefined;
		size = count(text) + imageSize;
		if (under(size)) return undefined;
	}
	const keptImages = images.filter((b) => base64Length(b) <= policy.keepImagesUpTo);
	const { head, tail } = excerpts(text, policy.head, policy.tail);
	return {
		view: {
			entryId,
			toolCallId: result.toolCallId,
			toolName: result.toolName,
			isError: result.isError === true,
			chars: text.length,
			lines: text === "" ? 0 : countLines(text),
			bytes: bytes ?? Buffer.byteLength(text, "utf8"),
			size,
			unit: policy.unit,
			head,
			tail,
			omittedChars: text.length - head.length - tail.length,
			imagesKept: keptImages.length,
			imagesOmitted: images.length - keptImages.length,
		},
		keptImages,
		text,
	};
}

/**
 * Whether `result` stays whole under `policy` by its size bounds alone: no
 * text is joined, nothing allocated, no tokenizer. False means "maybe not":
 * {@link virtualize} decides. Most results are decided here.
 */
export function clearlyWhole(result: ToolResultLike, policy: VirtualizePolicy): boolean {
	const content = result.content;
	let length = 0;
	let bytes = 0;
	let images = 0;
	let texts = 0;
	const blocks = typeof content === "string" ? [content] : Array.isArray(content) ? content : [];
	for (const block of blocks as unknown[]) {
		const text =
			typeof block === "string"
				? block
				: typeof block === "object" && block !== null && (block as Block).type === "text"
					? (block as Block).text
					: undefined;
		if (typeof text === "string") {
			texts++;
			length += text.length;
		} else if (typeof block === "object" && block !== null && (block as Block).type === "image")
			images++;
	}
	const separators = Math.max(0, texts - 1);
	const imageSize = policy.countImages ? images * policy.imageSize : 0;
	if (policy.unit === "chars") return length + separators + imageSize <= policy.threshold;
	if ((length + separators) * 3 + imageSize <= policy.threshold) return true;
	for (const block of blocks as unknown[]) {
		const text = typeof block === "string" ? block : (block as Block | null)?.text;
		if (typeof text === "string" && (typeof block === "string" || (block as Block).type === "text"))
			bytes += Buffer.byteLength(text, "utf8");
	}
	return bytes + separators + imageSize <= policy.threshold;
}

/** The text of a result (its text blocks joined by a line break) and its image blocks. */
function parts(content: unknown): { text: string; images: Block[] } {
	if (typeof content === "string") return { text: content, images: [] };
	const texts: string[] = [];
	const images: Block[] = [];
	if (Array.isArray(content)) {
		for (const block of content as unknown[]) {
			if (typeof block !== "object" || block === null) continue;
			const b = block as Block;
			if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
			else if (b.type === "image") images.push(b);
		}
	}
	return { text: texts.join("\n"), images };
}

function base64Length(image: Block): number {
	return typeof image.data === "string" ? image.data.length : 0;
}

/**
 * The first `head` and last `tail` characters of `text`, each cut back to a
 * line boundary when one is near (within half the excerpt), and never
 * splitting a surrogate pair. Together they never overlap.
 */
export function excerpts(text: string, head: number, tail: number): { head: string; tail: string } {
	if (text.length <= head + tail) return { head: text, tail: "" };
	let end = head;
	const nl = end > 0 ? text.lastIndexOf("\n", end - 1) : -1;
	if (nl !== -1 && nl >= head / 2) end = nl + 1;
	else if (isLowSurrogate(text, end)) end--;
	let start = text.length - tail;
	const nl2 = text.indexOf("\n", start - 1);
	if (nl2 !== -1 && nl2 + 1 <= text.length - tail / 2) start = nl2 + 1;
	else if (isLowSurrogate(text, start)) start++;
	if (start < end) start = end;
	return { head: text.slice(0, end), tail: text.slice(start) };
}

function isLowSurrogate(text: string, i: number): boolean {
	const c = text.charCodeAt(i);
	return c >= 0xdc00 && c <= 0xdfff;
}

function countLines(text: string): number {
	let n = 1;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
	return text.endsWith("\n") ? n - 1 : n;
}

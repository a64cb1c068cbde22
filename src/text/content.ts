/**
 * What a message says, as text: the project's one way to read a message's
 * content (counted by `inspect`, shown by `render --format text`, compared
 * by `diff`, snapshotted by the build). Text blocks, thinking, and each tool
 * call's name with its JSON arguments, one block a line. Images are not
 * text: they are listed apart, with an estimate of their tokens. Total over
 * any JSON value: a field that is not what it should be (an object for a
 * text, arguments nested 100,000 deep) is printed as JSON, never thrown on.
 */
import { jsonText } from "./json-writer.js";

export interface ImageInfo {
	mimeType: string;
	/** Pixel size, when the data's header tells it. */
	width?: number;
	height?: number;
	/** Estimated tokens: pixels / 750, at most 1,600 (unknown size: 1,600). */
	tokens: number;
}

export interface MessageContent {
	text: string;
	images: ImageInfo[];
}

export interface ContentTextOptions {
	/**
	 * For people: thinking, tool calls and images labelled in the text
	 * (`[thinking] …`, `[tool call NAME] {…}`, `[image TYPE, up to ~N tokens]`).
	 * Without it, the text is what a tokenizer counts: no labels, no images.
	 */
	labelled?: boolean;
	/** JSON nested deeper than this (tool-call arguments) is cut (default: no limit). */
	maxDepth?: number;
}

/** Tokens of an image of unknown size, and the most any image is given. */
export const IMAGE_TOKENS_MAX = 1600;

/** A value that should be a string, as text whatever it is (none for undefined or null). */
export function asText(value: unknown): string {
	if (typeof value === "string") return value;
	if (value === undefined || value === null) return "";
	return jsonText(value);
}

/** The text and images of a message's `content` (a string or an array of blocks). */
export function contentOf(content: unknown, options: ContentTextOptions = {}): MessageContent {
	if (typeof content === "string") return { text: content, images: [] };
	if (!Array.isArray(content)) return { text: asText(content), images: [] };
	const labelled = options.labelled === true;
	const json = (value: unknown) =>
		jsonText(value, options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth });
	const parts: string[] = [];
	const images: ImageInfo[] = [];
	for (const block of content as unknown[]) {
		if (block === null || typeof block !== "object" || Array.isArray(block)) {
			parts.push(asText(block));
			continue;
		}
		const b = block as Record<string, unknown>;
		switch (b.type) {
			case "text":
				parts.push(asText(b.text));
				break;
			case "thinking":
				parts.push(labelled ? `[thinking] ${asText(b.thinking)}` : asText(b.thinking));
				break;
			case "toolCall": {
				const name = asText(b.name);
				parts.push(`${labelled ? `[tool call ${name}]` : name} ${json(b.arguments ?? {})}`);
				break;
			}
			case "image": {
				const image = imageInfo(b);
				images.push(image);
				if (labelled) parts.push(`[image ${image.mimeType}, up to ~${IMAGE_TOKENS_MAX} tokens]`);
				break;
			}
			default:
				parts.push(json(b));
		}
	}
	return { text: parts.join("\n"), images };
}

function imageInfo(block: Record<string, unknown>): ImageInfo {
	const mimeType = asText(block.mimeType);
	const size = typeof block.data === "string" ? imageSize(block.data) : undefined;
	if (size === undefined) return { mimeType, tokens: IMAGE_TOKENS_MAX };
	const tokens = Math.min(IMAGE_TOKENS_MAX, Math.ceil((size.width * size.height) / 750));
	return { mimeType, ...size, tokens };
}

/** Width and height from a base64 PNG, GIF or JPEG header, if it is one. */
export function imageSize(base64: string): { width: number; height: number } | undefined {
	const head = Buffer.from(base64.slice(0, 64 * 1024), "base64");
	if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47) {
		return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
	}
	if (head.length >= 10 && head.toString("latin1", 0, 3) === "GIF") {
		return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
	}
	if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) {
		let i = 2;
		while (i + 9 < head.length && head[i] === 0xff) {
			const marker = head[i + 1] as number;
			const length = head.readUInt16BE(i + 2);
			if (
				marker >= 0xc0 &&
				marker <= 0xcf &&
				marker !== 0xc4 &&
				marker !== 0xc8 &&
				marker !== 0xcc
			) {
				return { height: head.readUInt16BE(i + 5), width: head.readUInt16BE(i + 7) };
			}
			i += 2 + length;
		}
	}
	return undefined;
}

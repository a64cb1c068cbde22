/**
 * Reasoning a provider keeps hidden: Codex receives each call's reasoning
 * encrypted, sends it back with the calls that follow, and is billed for it
 * as input, while the log holds only a summary of it. Where the log records
 * its size (`usage.reasoning`, in the model's own tokens), that size counts
 * as the message's thinking instead of the summary's text.
 */

/** The recorded size of an assistant message's hidden reasoning, in the model's tokens; undefined when not recorded. */
export function hiddenReasoning(message: unknown): number | undefined {
	if (message === null || typeof message !== "object") return undefined;
	const m = message as { role?: unknown; usage?: unknown; content?: unknown };
	if (m.role !== "assistant" || m.usage === null || typeof m.usage !== "object") return undefined;
	const size = (m.usage as { reasoning?: unknown }).reasoning;
	if (typeof size !== "number" || !Number.isFinite(size) || size <= 0) return undefined;
	return Array.isArray(m.content) && m.content.some(isThinking) ? size : undefined;
}

/** `content` without its thinking blocks (what is counted besides a hidden reasoning's size). */
export function withoutThinking(content: unknown): unknown {
	return Array.isArray(content) ? content.filter((b) => !isThinking(b)) : content;
}

function isThinking(block: unknown): boolean {
	return (
		block !== null && typeof block === "object" && (block as { type?: unknown }).type === "thinking"
	);
}

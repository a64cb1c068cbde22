/**
 * Materialising a bundle's messages for a provider: user, assistant and tool
 * results pass through; every other kind becomes user text through its
 * framing template (collapse summary, compaction summary, branch summary,
 * custom message, bash execution). Session text is neutralised again here,
 * so messages built by hand get the same protection.
 */
import type { AgentMessage } from "../log/schema.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import type { TemplateSet } from "../templates/compile.js";
import { deriveSummary } from "../view/derive.js";
import { neutralizeBlock, neutralizeLine } from "../view/neutralize.js";

type Block = { type: string; text?: string; [key: string]: unknown };

/** The provider-ready form of `messages`, framed with `set`'s templates. */
export function convertMessages(
	messages: readonly ContextMessage[],
	set: TemplateSet,
): LlmMessage[] {
	const out: LlmMessage[] = [];
	for (const message of messages) {
		const converted = convertMessage(message, set);
		if (converted !== undefined) out.push(converted);
	}
	return out;
}

/**
 * The provider-ready form of one message, or undefined for one that stays
 * out of the model's context (a bash execution excluded from it).
 */
export function convertMessage(message: ContextMessage, set: TemplateSet): LlmMessage | undefined {
	const clean = (text: string) => neutralizeBlock(text, set.markers);
	const cleanLine = (text: string) => neutralizeLine(text, set.markers);
	const user = (text: string, timestamp: unknown, extra: Block[] = []): LlmMessage => ({
		role: "user",
		content: [{ type: "text", text }, ...extra],
		...(typeof timestamp === "number" ? { timestamp } : {}),
	});
	if ("type" in message && message.role === "collapse_context") {
		const { components } = deriveSummary(message.payload.summary, set.caps, set.markers);
		return user(set.render["collapse-context"]({ components }), undefined);
	}
	switch (message.role) {
		case "user":
		case "assistant":
		case "toolResult":
			return message as LlmMessage;
		case "compactionSummary":
			return user(
				set.render["compaction-summary"]({
					summary: clean(message.summary),
					...(message.tokensBefore === undefined ? {} : { tokensBefore: message.tokensBefore }),
				}),
				message.timestamp,
			);
		case "branchSummary":
			return user(
				set.render["branch-summary"]({
					summary: clean(message.summary),
					...(message.fromId === undefined ? {} : { fromId: cleanLine(message.fromId) }),
				}),
				message.timestamp,
			);
		case "custom": {
			const { text, rest } = splitContent(message.content);
			const framed = set.render["custom-message"]({
				customType: cleanLine(message.customType ?? ""),
				text: clean(text),
			});
			return user(framed, message.timestamp, rest);
		}
		case "bashExecution": {
			const m = message as Extract<AgentMessage, { role: "bashExecution" }>;
			if (m.excludeFromContext === true) return undefined;
			const framed = set.render["bash-execution"]({
				command: clean(m.command),
				output: clean(m.output),
				...(typeof m.exitCode === "number" ? { exitCode: m.exitCode } : {}),
				cancelled: m.cancelled === true,
				truncated: m.truncated === true,
				...(m.fullOutputPath === undefined ? {} : { fullOutputPath: clean(m.fullOutputPath) }),
			});
			return user(framed, m.timestamp);
		}
		default:
			return undefined;
	}
}

/** Text blocks joined into one string; other blocks (images) kept as they are. */
function splitContent(content: unknown): { text: string; rest: Block[] } {
	if (typeof content === "string") return { text: content, rest: [] };
	const texts: string[] = [];
	const rest: Block[] = [];
	for (const block of content as Block[]) {
		if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
		else rest.push(block);
	}
	return { text: texts.join("\n"), rest };
}

/**
 * Materialising a bundle's messages for a provider, as pi's `convertToLlm`
 * does: user, assistant and tool results pass through; a custom message
 * becomes a user message with its content as written; theway's summary roles
 * (collapse summary, compaction summary, branch summary) and bash executions
 * become user text through their framing templates. Session text in what
 * becomes user text is neutralised (again: messages built by hand get the
 * same protection), and that escape is the only change to it.
 */
import type { Diagnostic } from "../errors.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import type { TemplateSet } from "../templates/set.js";
import { asText } from "../text/content.js";
import type { RootTemplate } from "../view/constants.js";
import { deriveSummary } from "../view/derive.js";
import { neutralize } from "../view/neutralize.js";
import { cleanContent } from "./content.js";

type Loose = Record<string, unknown>;

/**
 * The framing template of each stored role that reaches the model as framed
 * user text (a custom message passes as written: it has none).
 */
export const FRAMINGS = {
	collapse_context: "collapse-context",
	compactionSummary: "compaction-summary",
	branchSummary: "branch-summary",
	bashExecution: "bash-execution",
} as const satisfies Readonly<Record<string, RootTemplate>>;

/** The framing template `message` is rendered with, if any. */
export function framingOf(message: ContextMessage): RootTemplate | undefined {
	const role = (message as Loose | null)?.role;
	return typeof role === "string" && Object.hasOwn(FRAMINGS, role)
		? FRAMINGS[role as keyof typeof FRAMINGS]
		: undefined;
}

/**
 * The provider-ready form of `messages`, framed with `set`'s templates. A
 * message of an unknown role (or no message at all) is left out, as pi
 * does, but never silently: a warning goes to `diagnostics`, or, when none
 * is given, to `process.emitWarning`. `stubAt` gives the stub a virtualized
 * tool result reaches the model as, by index.
 */
export function convertMessages(
	messages: readonly ContextMessage[],
	set: TemplateSet,
	diagnostics?: Diagnostic[],
	stubAt: (index: number) => LlmMessage | undefined = () => undefined,
): LlmMessage[] {
	const out: LlmMessage[] = [];
	messages.forEach((message, index) => {
		const converted = stubAt(index) ?? convertMessage(message, set);
		if (converted !== undefined) out.push(converted);
		else if (!isExcludedBash(message)) warn(unknownRole(message, index), diagnostics);
	});
	return out;
}

/**
 * The provider-ready form of one message, or undefined for one that stays
 * out of the model's context (a bash execution excluded from it, an unknown role).
 */
export function convertMessage(message: ContextMessage, set: TemplateSet): LlmMessage | undefined {
	if (message === null || typeof message !== "object") return undefined;
	const m = message as Loose;
	const clean = (text: string) => neutralize(text, set.markers);
	// A message built by hand may hold anything where text should be.
	const text = (value: unknown) => clean(asText(value));
	const line = (value: unknown) => neutralize(asText(value), set.markers, { line: true });
	// The message's own timestamp, whatever it holds, as pi passes it; null is a derived
	// message's timestamp that is no date (warned when projected): left out.
	const user = (content: unknown): LlmMessage => ({
		role: "user",
		content,
		...(m.timestamp === undefined || m.timestamp === null ? {} : { timestamp: m.timestamp }),
	});
	const framed = (body: string) => user([{ type: "text", text: body }]);
	if (m.type === "custom" && m.role === "collapse_context") {
		const payload = m.payload as { summary?: unknown } | undefined;
		const stored = typeof payload?.summary === "string" ? payload.summary : "";
		const { components } = deriveSummary(stored, set.caps, set.markers);
		return framed(set.render[FRAMINGS.collapse_context]({ components }));
	}
	switch (m.role) {
		case "user":
		case "assistant":
		case "toolResult":
			return message as LlmMessage;
		case "custom": {
			// As pi: string content becomes one text block; blocks keep their order.
			const content =
				typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
			return user(cleanContent(content, clean));
		}
		case "compactionSummary":
			return framed(
				set.render[FRAMINGS.compactionSummary]({
					summary: text(m.summary),
					...(typeof m.tokensBefore === "number" ? { tokensBefore: m.tokensBefore } : {}),
				}),
			);
		case "branchSummary":
			return framed(
				set.render[FRAMINGS.branchSummary]({
					summary: text(m.summary),
					...(m.fromId === undefined ? {} : { fromId: line(m.fromId) }),
				}),
			);
		case "bashExecution": {
			if (m.excludeFromContext === true) return undefined;
			return framed(
				set.render[FRAMINGS.bashExecution]({
					command: text(m.command),
					output: text(m.output),
					...(typeof m.exitCode === "number" ? { exitCode: m.exitCode } : {}),
					cancelled: m.cancelled === true,
					truncated: m.truncated === true,
					...(m.fullOutputPath === undefined ? {} : { fullOutputPath: line(m.fullOutputPath) }),
				}),
			);
		}
		default:
			return undefined;
	}
}

function isExcludedBash(message: unknown): boolean {
	const m = message as Loose | null;
	return (
		m !== null &&
		typeof m === "object" &&
		m.role === "bashExecution" &&
		m.excludeFromContext === true
	);
}

function unknownRole(message: unknown, index: number): Diagnostic {
	const role =
		message !== null && typeof message === "object" ? (message as Loose).role : undefined;
	const named = typeof role === "string" ? JSON.stringify(role) : `(${typeof role})`;
	const what =
		message === null || typeof message !== "object"
			? `is not a message (${message === null ? "null" : typeof message})`
			: `has an unknown role ${named}`;
	return {
		severity: "warning",
		code: "unknown_message_role",
		message: `message ${index} ${what}: left out of the model's context`,
	};
}

function warn(d: Diagnostic, diagnostics: Diagnostic[] | undefined): void {
	if (diagnostics !== undefined) diagnostics.push(d);
	else process.emitWarning(d.message, { code: d.code });
}

/**
 * The tokens of each call's context, counted as `inspect` counts them (the
 * system prompt, then each provider-ready message's text, images not
 * included, a hidden reasoning at the size its log records), and the prefix
 * it shares with the previous call's context.
 *
 * Each message is counted once: by its object (an entry's message is the
 * same object from one projection to the next), else by its entry (a
 * summary or a custom message is a function of its entry). The prefix rule
 * compares entry ids and stub states, never texts.
 */

import { convertMessage } from "../render/convert.js";
import { stubsOf, type VirtualizedResult } from "../render/stubs.js";
import type { ContextMessage } from "../session/messages.js";
import type { TemplateSet } from "../templates/set.js";
import { contentOf } from "../text/content.js";
import { hiddenReasoning, withoutThinking } from "../text/reasoning.js";
import type { Tokenizer } from "../text/tokenizer.js";
import type { CallContext } from "./walk.js";

/** One call's context, counted. */
export interface CountedCall {
	/** The whole context as the set sends it (stubs included): `inspect`'s total. */
	contextTokens: number;
	/** The prefix shared with the previous call's context. */
	cachedTokens: number;
	newTokens: number;
	/** The context with every tool result whole, as an agent that never virtualizes sends it. */
	wholeTokens: number;
}

interface Counts {
	/** As sent (the stub for a stubbed result); 0 for a message left out. */
	sent: number;
	whole: number;
}

/** What the previous call's context was, for the prefix rule. */
interface Previous {
	systemPrompt: string;
	entryIds: readonly string[];
	length: number;
	stubbed: ReadonlyMap<number, VirtualizedResult>;
	sent: number;
	whole: number;
}

/** Counts the calls of one session under one set, in order. */
export class CallCounter {
	private readonly byObject = new WeakMap<object, Counts>();
	private readonly byEntry = new Map<string, Counts>();
	private prompt: { text: string; tokens: number } | undefined;
	private previous: Previous | undefined;

	constructor(
		private readonly set: TemplateSet,
		private readonly tokenizer: Tokenizer,
	) {}

	/** Forgets the last call counted: the next shares no prefix with it (another counter counted the calls between). */
	forget(): void {
		this.previous = undefined;
	}

	/** Counts `call`, whose previous call (if any) was the last one given. */
	count(call: CallContext): CountedCall {
		if (this.prompt?.text !== call.systemPrompt) {
			this.prompt = { text: call.systemPrompt, tokens: this.tokenizer.count(call.systemPrompt) };
		}
		const system = this.prompt.tokens;
		const before = this.previous;
		const sameSystem = before !== undefined && before.systemPrompt === call.systemPrompt;
		let cached = sameSystem ? system : 0;
		let sent = system;
		let whole = system;
		let from = 0;
		if (before !== undefined && call.grown > 0 && call.grown === before.length) {
			// The branch only grew: the previous context is this one's start, unchanged.
			from = call.grown;
			sent = before.sent;
			whole = before.whole;
			if (sameSystem) cached = before.sent;
		}
		let shared = sameSystem && from === 0;
		for (let i = from; i < call.length; i++) {
			const entryId = call.entryIds[i] ?? "";
			const listing = call.stubbed.get(i);
			const stub = listing !== undefined;
			const counts = this.counts(call.messages[i] as ContextMessage, entryId, listing);
			const n = stub ? counts.sent : counts.whole;
			sent += n;
			whole += counts.whole;
			if (shared) {
				shared =
					before !== undefined &&
					i < before.length &&
					before.entryIds[i] === entryId &&
					before.stubbed.has(i) === stub;
				if (shared) cached += n;
			}
		}
		this.previous = {
			systemPrompt: call.systemPrompt,
			entryIds: call.entryIds,
			length: call.length,
			stubbed: call.stubbed,
			sent,
			whole,
		};
		return {
			contextTokens: sent,
			cachedTokens: cached,
			newTokens: sent - cached,
			wholeTokens: whole,
		};
	}

	private counts(
		message: ContextMessage,
		entryId: string,
		listing: VirtualizedResult | undefined,
	): Counts {
		const stub = listing !== undefined;
		const own = this.byObject.get(message) ?? this.byEntry.get(entryId);
		if (own !== undefined && (!stub || own.sent >= 0)) return own;
		const llm = convertMessage(message, this.set);
		const wholeTokens = own?.whole ?? (llm === undefined ? 0 : this.message(llm));
		let sent = -1; // not asked yet
		if (listing !== undefined) {
			// The stub as a bundle listing it converts it: the one way a stub is made.
			const one = {
				messages: [message],
				entryIds: [entryId],
				meta: { virtualized: [{ ...listing, index: 0 }] },
			};
			const stubMessage = stubsOf(one, this.set)(0);
			sent = stubMessage === undefined ? wholeTokens : this.text(stubMessage.content);
		}
		const counts = { sent, whole: wholeTokens };
		if (isEntryMessage(message)) this.byObject.set(message, counts);
		else this.byEntry.set(entryId, counts);
		return counts;
	}

	private text(content: unknown): number {
		return this.tokenizer.count(contentOf(content).text);
	}

	/** A provider-ready message's tokens: its text, a hidden reasoning at its recorded size. */
	private message(llm: { content: unknown }): number {
		const reasoning = hiddenReasoning(llm);
		if (reasoning === undefined) return this.text(llm.content);
		return this.text(withoutThinking(llm.content)) + reasoning;
	}
}

/** The roles an entry's message has as stored (the same object from one projection to the next). */
function isEntryMessage(message: ContextMessage): boolean {
	switch (message.role) {
		case "compactionSummary":
		case "branchSummary":
		case "custom":
		case "collapse_context":
			return false;
		default:
			return true;
	}
}

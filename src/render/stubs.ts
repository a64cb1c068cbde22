/**
 * Virtualization applied to a bundle. At load time each tool result is
 * decided once (stub or whole) and the stubs are listed in
 * `bundle.meta.virtualized`; converting the bundle for a provider applies
 * that list. The log and `bundle.messages` keep every result whole.
 *
 * A decision is cached per message object and set fingerprint: a session
 * kept open shares its message objects from one load to the next, so a
 * reload tokenizes nothing it already decided. The tokenizer (o200k) is
 * loaded on the first result the byte filter cannot decide, once per process.
 */
import { ContextError } from "../errors.js";
import { loadTokenizerSync } from "../measure/tokenizer.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { STUB, type TemplateSet } from "../templates/set.js";
import { neutralize } from "../view/neutralize.js";
import { convertMessage } from "./convert.js";
import {
	clearlyWhole,
	type ToolResultLike,
	type Virtualization,
	virtualize,
} from "./virtualize.js";

/** One tool result that reaches the model as a stub, as `bundle.meta.virtualized` lists it. */
export interface VirtualizedResult {
	/** Its index in `bundle.messages`. */
	index: number;
	entryId: string;
	toolCallId: string;
	toolName: string;
	isError: boolean;
	/** Characters of the result's text. */
	chars: number;
	/** o200k tokens of the result's text, and of the stub's text that replaces it. */
	tokensBefore: number;
	tokensAfter: number;
	/** `tokensBefore - tokensAfter`. */
	saved: number;
	/** Images kept beside the stub, and images left out (counted in its text); images are not in the tokens. */
	imagesKept: number;
	imagesOmitted: number;
}

interface Stub {
	message: LlmMessage;
	listing: Omit<VirtualizedResult, "index">;
}

interface Decision {
	entryId: string;
	/** Undefined: the result stays whole. */
	stub?: Stub;
}

const decisions = new WeakMap<object, Map<string, Decision>>();

let counter: ((text: string) => number) | undefined;
/** o200k tokens of `text`; the tokenizer is loaded on first use. */
function tokens(text: string): number {
	counter ??= loadTokenizerSync("o200k").count;
	return counter(text);
}

/** What one load decided, for the next load of the same open session. */
export interface VirtualizeMemo {
	fingerprint: string;
	messages: readonly ContextMessage[];
	listed: readonly VirtualizedResult[];
}

/**
 * The stubs of `messages` under `set`'s policy (none when the set has no
 * stub template). With `previous`, the listing of an earlier load of the
 * same session: a message that is the same object at the same index keeps
 * its decision (a message object belongs to one entry), so a reload after
 * an append looks at the new messages only, never at the old ones' content.
 */
export function virtualizeMessages(
	messages: readonly ContextMessage[],
	entryIds: readonly string[],
	set: TemplateSet,
	previous?: VirtualizeMemo,
): VirtualizedResult[] {
	if (set.virtualize === undefined) return [];
	const memo = previous?.fingerprint === set.fingerprint ? previous : undefined;
	const old = memo?.messages ?? [];
	const listed = new Map(memo?.listed.map((v) => [v.index, v]));
	const out: VirtualizedResult[] = [];
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index] as ContextMessage;
		if (old[index] === message) {
			const kept = listed.get(index);
			if (kept !== undefined) out.push(kept);
			continue;
		}
		const stub = decide(message, entryIds[index] ?? "", set)?.stub;
		if (stub !== undefined) out.push(Object.freeze({ index, ...stub.listing }));
	}
	return out;
}

/** Whether `message` is a tool result `set` turns into a stub; decided once per message and set. */
function decide(message: ContextMessage, entryId: string, set: TemplateSet): Decision | undefined {
	const policy = set.virtualize;
	if (policy === undefined || !isToolResult(message)) return undefined;
	// Cheaper than a cache lookup: most results are decided by their size bounds.
	if (clearlyWhole(message as ToolResultLike, policy)) return undefined;
	let bySet = decisions.get(message);
	if (bySet === undefined) {
		bySet = new Map();
		decisions.set(message, bySet);
	}
	const cached = bySet.get(set.fingerprint);
	if (cached !== undefined && cached.entryId === entryId) return cached;
	const v = virtualize(message as ToolResultLike, entryId, policy, tokens);
	const decision: Decision = {
		entryId,
		...(v === undefined ? {} : { stub: stubOf(message, v, set) }),
	};
	bySet.set(set.fingerprint, decision);
	return decision;
}

/** The provider-ready stub of a tool result: the stored message with its content replaced. */
function stubOf(message: ContextMessage, v: Virtualization, set: TemplateSet): Stub {
	const render = set.render[STUB];
	if (render === undefined) {
		// A set has a policy exactly when it has the stub template (checked when it is compiled).
		throw new ContextError(
			"internal",
			`template set ${set.version} has a policy but no ${STUB}`,
			{},
		);
	}
	const line = (value: unknown) => neutralize(String(value ?? ""), set.markers, { line: true });
	const view = v.view;
	const text = render({
		...view,
		entryId: line(view.entryId),
		toolCallId: line(view.toolCallId),
		toolName: line(view.toolName),
		// The excerpts end where a line does; the template puts its own break there.
		head: neutralize(view.head.replace(/\n$/, ""), set.markers),
		tail: neutralize(view.tail.replace(/\n$/, ""), set.markers),
	});
	const tokensBefore = v.textTokens ?? tokens(v.text);
	const tokensAfter = tokens(text);
	return {
		message: { ...(message as LlmMessage), content: [{ type: "text", text }, ...v.keptImages] },
		listing: {
			entryId: view.entryId,
			toolCallId: String(view.toolCallId ?? ""),
			toolName: String(view.toolName ?? ""),
			isError: view.isError,
			chars: view.chars,
			tokensBefore,
			tokensAfter,
			saved: tokensBefore - tokensAfter,
			imagesKept: view.imagesKept,
			imagesOmitted: view.imagesOmitted,
		},
	};
}

/**
 * The stub of the message at `index`, which the bundle's listing names. A
 * bundle read back from JSON (no cached decision) is applied as listed.
 */
export function stubAt(
	message: ContextMessage,
	entryId: string,
	set: TemplateSet,
): LlmMessage | undefined {
	const decided = decide(message, entryId, set)?.stub;
	if (decided !== undefined) return decided.message;
	if (set.virtualize === undefined || !isToolResult(message)) return undefined;
	const v = virtualize(message as ToolResultLike, entryId, set.virtualize, tokens, true);
	return v === undefined ? undefined : stubOf(message, v, set).message;
}

/**
 * A function from a message's index to the stub it reaches the model as, for
 * the results `bundle.meta.virtualized` lists (undefined for every other
 * message). A listed index that no longer holds that result (a bundle whose
 * messages were changed after loading) is not stubbed.
 */
export function stubsOf(
	bundle: {
		messages: readonly ContextMessage[];
		entryIds: readonly string[];
		meta: { virtualized?: readonly VirtualizedResult[] };
	},
	set: TemplateSet,
	enabled = true,
): (index: number) => LlmMessage | undefined {
	const listed = enabled ? (bundle.meta.virtualized ?? []) : [];
	if (listed.length === 0) return () => undefined;
	const byIndex = new Map(listed.map((v) => [v.index, v]));
	return (index) => {
		const v = byIndex.get(index);
		const message = bundle.messages[index] as ContextMessage;
		const entryId = bundle.entryIds[index];
		if (v === undefined || entryId !== v.entryId || !isToolResult(message)) return undefined;
		if ((message as { toolCallId?: unknown }).toolCallId !== v.toolCallId) return undefined;
		return stubAt(message, entryId, set);
	};
}

/**
 * Each message of `bundle` in its provider-ready form, by index: the stub
 * the bundle lists for it (unless `enabled` is false), else the message
 * converted as usual (undefined for one that stays out of the context).
 */
export function bundleConverter(
	bundle: Parameters<typeof stubsOf>[0],
	set: TemplateSet,
	enabled = true,
): (index: number) => LlmMessage | undefined {
	const stub = stubsOf(bundle, set, enabled);
	return (index) => stub(index) ?? convertMessage(bundle.messages[index] as ContextMessage, set);
}

function isToolResult(message: unknown): boolean {
	return (
		message !== null &&
		typeof message === "object" &&
		(message as { role?: unknown }).role === "toolResult"
	);
}

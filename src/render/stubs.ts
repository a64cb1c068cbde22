/**
 * Virtualization applied to a bundle. At load time each tool result is
 * decided once (stub or whole) and the stubs are listed in
 * `bundle.meta.virtualized`; converting the bundle for a provider applies
 * that list. The log and `bundle.messages` keep every result whole.
 *
 * Decisions are kept in a {@link StubCache} that the caller owns (the
 * service keeps one per open session): a session kept open shares its
 * message objects from one load to the next, so a reload decides only the
 * new messages. Without a cache, everything is decided afresh. The listing
 * carries what is exact and free (characters, lines, UTF-8 bytes); the
 * o200k table is loaded only for a set whose policy counts tokens, and
 * only for a result its byte bounds cannot settle.
 */
import { ContextError } from "../errors.js";
import { freezeMessage } from "../session/freeze.js";
import type { ContextMessage, LlmMessage } from "../session/messages.js";
import { STUB, type TemplateSet } from "../templates/set.js";
import { loadTokenizerSync } from "../text/tokenizer.js";
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
	/** Characters and lines of the result's text. */
	chars: number;
	lines: number;
	/** UTF-8 bytes of the result's text, and how many fewer the stub's text has. */
	bytes: number;
	savedBytes: number;
	/** Images kept beside the stub, and images left out (counted in its text). */
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

/**
 * The virtualization decisions of one session, kept by whoever keeps the
 * session open: per message object and set fingerprint, and the last
 * listing, for the next load to reuse.
 */
export class StubCache {
	readonly decisions = new WeakMap<object, Map<string, Decision>>();
	/** The last listing: under which set, of how many messages, which ones, and what it listed. */
	last:
		| {
				fingerprint: string;
				length: number;
				message(index: number): ContextMessage;
				listed: readonly VirtualizedResult[];
		  }
		| undefined;
}

/** o200k tokens, for a set whose policy counts them; the table is loaded on first use. */
const o200k = (text: string) => loadTokenizerSync("o200k").count(text);

/** Messages by index, without an array built for them (a projection's prefix, or two arrays). */
export interface MessageList {
	readonly length: number;
	message(index: number): ContextMessage;
	entryId(index: number): string;
}

/** Two arrays, index for index, as a {@link MessageList}. */
export function listOf(
	messages: readonly ContextMessage[],
	entryIds: readonly string[],
): MessageList {
	return {
		length: messages.length,
		message: (i) => messages[i] as ContextMessage,
		entryId: (i) => entryIds[i] ?? "",
	};
}

/**
 * The stubs of `list` under `set`'s policy (none when the set has no stub
 * template). With a `cache` that saw an earlier load of the same session,
 * what it decided is kept: when the first `shared` messages are the ones it
 * saw (a projection that extended the earlier one says how many), only the
 * messages after them are looked at; without `shared`, a message that is
 * the same object at the same index keeps its decision (a message object
 * belongs to one entry). Either way a reload after an append decides only
 * the new messages, never reading the old ones' content.
 */
export function virtualizeMessages(
	list: MessageList,
	set: TemplateSet,
	cache: StubCache = new StubCache(),
	shared?: number,
): VirtualizedResult[] {
	if (set.virtualize === undefined) return [];
	const memo = cache.last?.fingerprint === set.fingerprint ? cache.last : undefined;
	const out: VirtualizedResult[] = [];
	let from = 0;
	if (memo !== undefined && shared !== undefined && shared > 0 && shared <= memo.length) {
		for (const v of memo.listed) if (v.index < shared) out.push(v);
		from = shared;
	}
	const old = from === 0 ? memo : undefined;
	const listed = new Map(old?.listed.map((v) => [v.index, v]));
	for (let index = from; index < list.length; index++) {
		const message = list.message(index);
		if (old !== undefined && index < old.length && old.message(index) === message) {
			const kept = listed.get(index);
			if (kept !== undefined) out.push(kept);
			continue;
		}
		const stub = decide(message, list.entryId(index), set, cache)?.stub;
		if (stub !== undefined) out.push(Object.freeze({ index, ...stub.listing }));
	}
	cache.last = {
		fingerprint: set.fingerprint,
		length: list.length,
		message: (i) => list.message(i),
		listed: out,
	};
	return out;
}

/** Whether `message` is a tool result `set` turns into a stub; decided once per message and set. */
function decide(
	message: ContextMessage,
	entryId: string,
	set: TemplateSet,
	cache: StubCache,
): Decision | undefined {
	const policy = set.virtualize;
	if (policy === undefined || !isToolResult(message)) return undefined;
	// Cheaper than a cache lookup: most results are decided by their size bounds.
	if (clearlyWhole(message as ToolResultLike, policy)) return undefined;
	let bySet = cache.decisions.get(message);
	if (bySet === undefined) {
		bySet = new Map();
		cache.decisions.set(message, bySet);
	}
	const cached = bySet.get(set.fingerprint);
	if (cached !== undefined && cached.entryId === entryId) return cached;
	const v = virtualize(message as ToolResultLike, entryId, policy, o200k);
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
	// Frozen: the stub is cached with the session, and every later conversion hands out the same one.
	const content = [{ type: "text", text }, ...v.keptImages];
	return {
		message: freezeMessage({ ...(message as LlmMessage), content }),
		listing: {
			entryId: view.entryId,
			toolCallId: String(view.toolCallId ?? ""),
			toolName: String(view.toolName ?? ""),
			isError: view.isError,
			chars: view.chars,
			lines: view.lines,
			bytes: view.bytes,
			savedBytes: view.bytes - Buffer.byteLength(text, "utf8"),
			imagesKept: view.imagesKept,
			imagesOmitted: view.imagesOmitted,
		},
	};
}

/**
 * The stub of a tool result the bundle lists: decided through `cache` when
 * it holds the decision, else built as listed (a bundle read back from
 * JSON, or converted without its session's cache).
 */
function stubAt(
	message: ContextMessage,
	entryId: string,
	set: TemplateSet,
	cache: StubCache | undefined,
): LlmMessage | undefined {
	if (cache !== undefined) {
		const decided = decide(message, entryId, set, cache)?.stub;
		if (decided !== undefined) return decided.message;
	}
	if (set.virtualize === undefined || !isToolResult(message)) return undefined;
	const v = virtualize(message as ToolResultLike, entryId, set.virtualize, o200k, true);
	return v === undefined ? undefined : stubOf(message, v, set).message;
}

/** What of a bundle the conversion reads. */
export interface BundleLike {
	messages: readonly ContextMessage[];
	entryIds: readonly string[];
	meta: { virtualized?: readonly VirtualizedResult[] };
}

/** Conversion options: `enabled` false stubs nothing; `cache` holds a kept-open session's decisions. */
interface StubOptions {
	enabled?: boolean;
	cache?: StubCache;
}

/** A bundle's messages as a {@link MessageList}, read only when a message is asked for. */
function bundleList(bundle: BundleLike): MessageList {
	return {
		get length() {
			return bundle.messages.length;
		},
		message: (i) => bundle.messages[i] as ContextMessage,
		entryId: (i) => bundle.entryIds[i] ?? "",
	};
}

/**
 * The one stub lookup the converters share: for the results `virtualized`
 * lists at index `from` or later (the listing is in index order, so only its
 * tail is looked at), the stub the message at that index reaches the model
 * as. A listed index that no longer holds that result (messages changed
 * after loading) is not stubbed.
 */
function stubLookup(
	list: MessageList,
	virtualized: readonly VirtualizedResult[],
	set: TemplateSet,
	from: number,
	options: StubOptions,
): (index: number) => LlmMessage | undefined {
	const byIndex = new Map<number, VirtualizedResult>();
	if (options.enabled !== false) {
		for (let k = virtualized.length - 1; k >= 0; k--) {
			const v = virtualized[k] as VirtualizedResult;
			if (v.index < from) break;
			byIndex.set(v.index, v);
		}
	}
	if (byIndex.size === 0) return () => undefined;
	return (index) => {
		const v = byIndex.get(index);
		if (v === undefined) return undefined;
		const message = list.message(index);
		if (list.entryId(index) !== v.entryId || !isToolResult(message)) return undefined;
		if ((message as { toolCallId?: unknown }).toolCallId !== v.toolCallId) return undefined;
		return stubAt(message, v.entryId, set, options.cache);
	};
}

/**
 * A function from a message's index to the stub it reaches the model as, for
 * the results `bundle.meta.virtualized` lists (undefined for every other
 * message).
 */
export function stubsOf(
	bundle: BundleLike,
	set: TemplateSet,
	options: StubOptions = {},
): (index: number) => LlmMessage | undefined {
	return stubLookup(bundleList(bundle), bundle.meta.virtualized ?? [], set, 0, options);
}

/**
 * Each message of `bundle` in its provider-ready form, by index: the stub
 * the bundle lists for it (unless `enabled` is false), else the message
 * converted as usual (undefined for one that stays out of the context).
 */
export function bundleConverter(
	bundle: BundleLike,
	set: TemplateSet,
	options: StubOptions = {},
): (index: number) => LlmMessage | undefined {
	return tailConverter(bundleList(bundle), bundle.meta.virtualized ?? [], set, 0, options);
}

/**
 * {@link bundleConverter} for the messages of `list` from index `from` on,
 * reading nothing before it: what a kept-open session's reply holds after
 * an append costs what was appended. `virtualized` is the bundle's listing
 * (in index order), only its tail past `from` is looked at.
 */
export function tailConverter(
	list: MessageList,
	virtualized: readonly VirtualizedResult[],
	set: TemplateSet,
	from: number,
	options: StubOptions = {},
): (index: number) => LlmMessage | undefined {
	const stub = stubLookup(list, virtualized, set, from, options);
	return (index) => stub(index) ?? convertMessage(list.message(index), set);
}

function isToolResult(message: unknown): boolean {
	return (
		message !== null &&
		typeof message === "object" &&
		(message as { role?: unknown }).role === "toolResult"
	);
}

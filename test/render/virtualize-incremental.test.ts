/**
 * A reload decides only what was appended: given the prefix its earlier
 * listing saw, virtualization reads no message before it, at any length of
 * session (work counted by the messages read, never timed), and lists what
 * a fresh decision lists.
 */
import { describe, expect, it } from "vitest";
import { TemplateRegistry } from "../../src/library.js";
import {
	type MessageList,
	StubCache,
	type VirtualizedResult,
	virtualizeMessages,
} from "../../src/render/stubs.js";
import type { ContextMessage } from "../../src/session/messages.js";
import { longText, virtualizingSet } from "../support/tool-results.js";

const set = new TemplateRegistry(virtualizingSet({ unit: "chars", threshold: 200 })).get();

/** A session of `n` messages, every tenth a large tool result, read through a counting list. */
function session(n: number): { list: MessageList; reads: number[] } {
	const messages: ContextMessage[] = Array.from({ length: n }, (_, i) =>
		i % 10 === 9
			? ({
					role: "toolResult",
					toolCallId: `c${i}`,
					toolName: "read",
					content: [{ type: "text", text: longText(20) }],
					isError: false,
					timestamp: i,
				} as ContextMessage)
			: ({ role: "user", content: `message ${i}`, timestamp: i } as ContextMessage),
	);
	const reads: number[] = [];
	return {
		reads,
		list: {
			length: n,
			message: (i) => {
				reads.push(i);
				return messages[i] as ContextMessage;
			},
			entryId: (i) => `e${i}`,
		},
	};
}

function grown(base: ReturnType<typeof session>, extra: number) {
	const bigger = session(base.list.length + extra);
	return {
		reads: bigger.reads,
		list: {
			...bigger.list,
			// The first messages are the same objects as the earlier listing's.
			message: (i: number) =>
				i < base.list.length ? base.list.message(i) : bigger.list.message(i),
		} as MessageList,
	};
}

const indices = (listed: readonly VirtualizedResult[]) => listed.map((v) => v.index);

describe("virtualization on a reload", () => {
	for (const n of [200, 2000]) {
		it(`reads only the appended messages of a ${n}-message session`, () => {
			const first = session(n);
			const cache = new StubCache();
			const before = virtualizeMessages(first.list, set, cache);
			expect(before).toHaveLength(n / 10);
			const next = grown(first, 10);
			first.reads.length = 0;
			const after = virtualizeMessages(next.list, set, cache, n);
			expect(next.reads.filter((i) => i < n)).toEqual([]);
			expect(first.reads).toEqual([]);
			expect(next.reads).toHaveLength(10);
			// The same listing as a fresh decision of the whole session.
			expect(indices(after)).toEqual(indices(virtualizeMessages(grown(first, 10).list, set)));
			expect(after.slice(0, before.length)).toEqual(before);
		});
	}

	it("decides afresh when the cache saw another set", () => {
		const first = session(50);
		const cache = new StubCache();
		virtualizeMessages(first.list, set, cache);
		cache.last = cache.last === undefined ? undefined : { ...cache.last, fingerprint: "other" };
		first.reads.length = 0;
		virtualizeMessages(first.list, set, cache, 50);
		expect(first.reads).toHaveLength(50);
	});
});

/**
 * The messages of a branch as it grows. A session kept open is projected
 * turn after turn, each time a few entries longer: the projections of one
 * branch share one append-only list, each sees its own prefix of it, and
 * builds its arrays (messages, entry ids) only when they are read. A reload
 * after an append so costs what was appended, not the branch's length, and
 * the arrays a bundle already handed out never change.
 */
import type { ContextMessage } from "./messages.js";

/** The append-only list the projections of one branch share. */
export class BranchList {
	readonly messages: ContextMessage[] = [];
	readonly entryIds: string[] = [];

	get length(): number {
		return this.messages.length;
	}

	push(message: ContextMessage, entryId: string): void {
		this.messages.push(message);
		this.entryIds.push(entryId);
	}

	/** Puts a message first (the collapse summary older than a compaction's kept tail); only while the list is built. */
	unshift(message: ContextMessage, entryId: string): void {
		this.messages.unshift(message);
		this.entryIds.unshift(entryId);
	}

	/**
	 * A list to append to after the first `length` items: this one when
	 * nothing lies past them, else a copy of them (another projection of
	 * the branch went on from the same point).
	 */
	growableAt(length: number): BranchList {
		if (length === this.length) return this;
		const copy = new BranchList();
		for (let i = 0; i < length; i++)
			copy.push(this.messages[i] as ContextMessage, this.entryIds[i] as string);
		return copy;
	}
}

/** The first `length` items of a {@link BranchList}: one projection's messages. */
export class BranchPrefix {
	private messageArray: readonly ContextMessage[] | undefined;
	private idArray: readonly string[] | undefined;

	constructor(
		readonly list: BranchList,
		readonly length: number,
	) {}

	/** The messages, as a frozen array built on first read (then the same array each time). */
	get messages(): readonly ContextMessage[] {
		this.messageArray ??= Object.freeze(this.list.messages.slice(0, this.length));
		return this.messageArray;
	}

	/** The entry id of each message, index for index, frozen, built on first read. */
	get entryIds(): readonly string[] {
		this.idArray ??= Object.freeze(this.list.entryIds.slice(0, this.length));
		return this.idArray;
	}

	/** The message at `index` (< length), without building the array. */
	message(index: number): ContextMessage {
		return this.list.messages[index] as ContextMessage;
	}

	/** The entry id at `index` (< length), without building the array. */
	entryId(index: number): string {
		return this.list.entryIds[index] as string;
	}
}

/// <reference lib="dom" />
/** Small DOM helpers for the preview page's script. */

/** The element with this id (the page has each one it asks for). */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export type Child = Node | string | undefined;

/** An element with attributes and children. */
export function el(
	tag: string,
	attrs: Record<string, string> = {},
	...children: Child[]
): HTMLElement {
	const node = document.createElement(tag);
	for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
	for (const child of children) if (child !== undefined) node.append(child);
	return node;
}

/**
 * `children` in place of `node`'s own, through one fragment: a spread into
 * `replaceChildren` passes one argument per child, past the stack on a long
 * session.
 */
export function fill(node: Element, children: Iterable<Child>): void {
	const fragment = document.createDocumentFragment();
	for (const child of children) if (child !== undefined) fragment.append(child);
	node.replaceChildren(fragment);
}

/** `n` and `word`, plural unless `n` is 1 (`1 token`, `2 tokens`); `plural` when the word is irregular. */
export function count(n: number, word: string, plural = `${word}s`): string {
	return `${n.toLocaleString()} ${n === 1 ? word : plural}`;
}

/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's jump and search: to a message by number, and through
 * the matches of a text in the sections and messages shown, each marked.
 */
import { $, count, el, fill } from "./dom.js";

const found = { ids: [] as string[], at: -1 };

/** Scrolls to `id` and marks it for a moment. */
function reveal(id: string): void {
	const target = document.getElementById(id);
	if (target === null) return;
	for (const pre of target.querySelectorAll<HTMLElement>(".more-lines")) pre.click();
	target.scrollIntoView({ block: "start" });
	target.classList.remove("flash");
	void target.offsetWidth; // restarts the animation
	target.classList.add("flash");
}

/** Scrolls to message `#text` of the `messages` shown, or says why not. */
export function jump(text: string, messages: number): void {
	const n = Number(text);
	const last = messages - 1;
	const note = $("jump-note");
	if (!Number.isInteger(n) || n < 0 || n > last) {
		note.textContent = last < 0 ? "no messages" : `no message #${text} (0 to ${last})`;
		return;
	}
	note.textContent = "";
	reveal(`message-${n}`);
}

/**
 * How a search moves: `stay` (a re-rendering: no scrolling), `refine` (the
 * text was edited: the current match if it still matches, else the first),
 * `next`, `previous`.
 */
export type Step = "stay" | "refine" | "next" | "previous";

/**
 * Finds the search text in the sections and messages (case-insensitive) and
 * marks every occurrence; `shown` is whether a view is drawn to search.
 */
export function search(step: Step, shown: boolean): void {
	const needle = $<HTMLInputElement>("search").value.toLowerCase();
	for (const mark of document.querySelectorAll("main mark"))
		mark.replaceWith(mark.textContent ?? "");
	for (const hit of document.querySelectorAll(".hit")) hit.classList.remove("hit", "hit-current");
	const before = found.ids[found.at];
	found.ids = [];
	if (needle === "" || !shown) {
		found.at = -1;
		$("search-count").textContent = "";
		return;
	}
	for (const article of document.querySelectorAll<HTMLElement>(
		"#prompt article, #messages article",
	)) {
		let hits = 0;
		for (const more of article.querySelectorAll<HTMLElement>(".more-lines")) {
			if (article.textContent?.toLowerCase().includes(needle)) more.click();
		}
		for (const pre of article.querySelectorAll("pre")) hits += markAll(pre, needle);
		if (hits > 0) {
			article.classList.add("hit");
			found.ids.push(article.id);
		}
	}
	const kept = before === undefined ? -1 : found.ids.indexOf(before);
	const n = found.ids.length;
	if (n === 0) found.at = -1;
	else if (kept < 0) found.at = step === "previous" ? n - 1 : 0;
	else if (step === "next") found.at = (kept + 1) % n;
	else if (step === "previous") found.at = (kept + n - 1) % n;
	else found.at = kept;
	$("search-count").textContent =
		n === 0 ? "no match" : `${found.at + 1} of ${count(n, "matching part")}`;
	const current = found.ids[found.at];
	if (current === undefined) return;
	document.getElementById(current)?.classList.add("hit-current");
	if (step !== "stay") reveal(current);
}

/** Wraps each occurrence of `needle` in `pre` in a `mark`; how many there were. */
function markAll(pre: HTMLElement, needle: string): number {
	const text = pre.textContent ?? "";
	const lower = text.toLowerCase();
	let from = 0;
	let at = lower.indexOf(needle);
	if (at < 0) return 0;
	const parts: (string | HTMLElement)[] = [];
	let hits = 0;
	while (at >= 0) {
		parts.push(text.slice(from, at), el("mark", {}, text.slice(at, at + needle.length)));
		from = at + needle.length;
		at = lower.indexOf(needle, from);
		hits++;
	}
	parts.push(text.slice(from));
	fill(pre, parts);
	return hits;
}

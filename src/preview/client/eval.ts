/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's eval view (served as `/eval.js`): for the session the
 * page shows, each call an eval report asked about, the model's answer
 * beside what the session did, per set and sample; the calls whose choice
 * flipped between the two sets highlighted. It follows the page as the
 * replay view does, and stays empty when the server has no report.
 */
import type { EvalPayload, EvalToolCall } from "../eval-view.js";
import { $, el, fill } from "./dom.js";

let request = 0;

function move(text: string, toolCalls: readonly EvalToolCall[]): string {
	if (toolCalls.length > 0) {
		return toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join("\n");
	}
	return text === "" ? "(empty)" : text;
}

async function update(): Promise<void> {
	const session = document.body.dataset.session ?? "";
	if (session === "") return;
	const mine = ++request;
	let payload: EvalPayload;
	try {
		const response = await fetch(`/api/eval?${new URLSearchParams({ session })}`, {
			cache: "no-store",
		});
		payload = (await response.json()) as EvalPayload;
	} catch (error) {
		payload = { ok: false, error: String(error) };
	}
	if (mine !== request) return;
	const section = $("eval");
	if (!payload.ok) {
		section.replaceChildren();
		delete section.dataset.state;
		return;
	}
	section.dataset.state = "ok";
	const flips = payload.runs.filter((r) => r.flip).length;
	const head = el(
		"tr",
		{},
		...["call", "set", "sample", "answer", "the session did", "same"].map((h) => el("th", {}, h)),
	);
	const rows = payload.runs.map((r) =>
		el(
			"tr",
			{ class: r.flip ? "flip" : "", "data-index": String(r.index) },
			el("td", {}, String(r.index)),
			el("td", {}, r.set),
			el("td", {}, String(r.sample)),
			el(
				"td",
				{ class: "move" },
				r.error !== null
					? `error: ${r.error}`
					: r.answer === null
						? ""
						: move(r.answer.text, r.answer.toolCalls),
			),
			el("td", { class: "move" }, move(r.recorded.text, r.recorded.toolCalls)),
			el(
				"td",
				{},
				r.sameAsRecorded === null
					? "–"
					: r.sameAsRecorded.arguments
						? "same"
						: r.sameAsRecorded.tool
							? "same tool"
							: "differs",
				...r.assertions
					.filter((a) => !a.pass)
					.map((a) => el("div", { class: "muted" }, `✗ ${a.name}: ${a.reason}`)),
			),
		),
	);
	const table = el("table", { class: "eval-table" });
	fill(table, [head, ...rows]);
	section.replaceChildren(
		el("h2", {}, "Eval", el("span", { class: "size" }, `${payload.model} · ${payload.file}`)),
		payload.runs.length === 0
			? el("p", { class: "muted" }, "the report asked about no call of this session")
			: el(
					"p",
					{ class: "muted" },
					`${payload.runs.length} runs, ${flips} flipped between the sets`,
				),
		table,
	);
}

new MutationObserver(() => void update()).observe(document.body, {
	attributes: true,
	attributeFilter: ["data-session", "data-generation"],
});

/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview page's replay view (served as `/replay.js`): for the session
 * and set the page shows, one stacked bar per model call (cached, new and
 * output tokens) and the prompt the provider recorded as a line where the
 * log has it. It follows the page: each time the page renders (the body's
 * `data-session`, `data-generation` or `data-state` set), it asks again.
 * While the page shows an error instead of the session, it is empty: the
 * error box says what is wrong, once.
 */
import type { ReplayBar, ReplayPayload } from "../replay-view.js";
import { $, el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 160;
/** Width of one call in the chart's own units (the chart is scaled to the page). */
const STEP = 10;

let request = 0;

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
	const node = document.createElementNS(SVG, tag);
	for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
	return node;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

async function update(): Promise<void> {
	const session = document.body.dataset.session ?? "";
	if (session === "") return;
	const mine = ++request; // an answer still on its way is for a page no longer shown
	if (document.body.dataset.state?.startsWith("failed") === true) {
		const section = $("replay");
		section.replaceChildren();
		delete section.dataset.state;
		return;
	}
	const set = new URLSearchParams(location.hash.slice(1)).get("set") ?? "";
	let payload: ReplayPayload;
	try {
		const response = await fetch(`/api/replay?${new URLSearchParams({ session, set })}`, {
			cache: "no-store",
		});
		payload = (await response.json()) as ReplayPayload;
	} catch (error) {
		payload = { ok: false, error: String(error) };
	}
	if (mine !== request) return; // a later request is on its way
	// The page may have failed while this was asked (the same broken set): its box says so.
	if (document.body.dataset.state?.startsWith("failed") === true) return;
	draw(payload);
}

function draw(payload: ReplayPayload): void {
	const section = $("replay");
	section.dataset.state = payload.ok ? "ok" : "failed";
	if (!payload.ok) {
		section.replaceChildren(el("h2", {}, "Replay"), el("p", { class: "muted" }, payload.error));
		return;
	}
	const { total, fit, calls } = payload;
	const share = total.contextTokens === 0 ? 0 : (100 * total.cachedTokens) / total.contextTokens;
	const summary = `${total.calls} model call${total.calls === 1 ? "" : "s"} · ${int(total.contextTokens)} context tokens over them, ${int(total.cachedTokens)} cached (${share.toFixed(0)}%), ${int(total.newTokens)} new`;
	const fitText =
		fit === null
			? "no recorded usage to check against"
			: `recorded usage: growth correlation ${fit.correlation?.toFixed(3) ?? "n/a"}, median ratio ${fit.ratio?.toFixed(2) ?? "n/a"} over ${fit.calls} calls`;
	section.replaceChildren(
		el("h2", {}, "Replay", el("span", { class: "size" }, `set ${payload.set}`)),
		el("p", { class: "replay-summary muted" }, `${summary} · ${fitText}`),
		...(calls.length === 0
			? [el("p", { class: "muted" }, "no model call on this branch")]
			: [chart(calls), legend(calls.some((c) => c.recorded !== null))]),
	);
}

function chart(calls: readonly ReplayBar[]): SVGElement {
	const top = calls.reduce(
		(m, c) => Math.max(m, c.cached + c.fresh + (c.output ?? 0), c.recorded ?? 0),
		1,
	);
	const y = (tokens: number) => (tokens / top) * HEIGHT;
	const width = calls.length * STEP;
	const root = svg("svg", {
		class: "replay-chart",
		viewBox: `0 0 ${width} ${HEIGHT}`,
		preserveAspectRatio: "none",
		role: "img",
		"aria-label": "tokens per model call",
	});
	calls.forEach((c, i) => {
		const group = svg("g", { class: "call", "data-index": c.index });
		let base = HEIGHT;
		for (const [kind, tokens] of [
			["cached", c.cached],
			["new", c.fresh],
			["output", c.output ?? 0],
		] as const) {
			const h = y(tokens);
			base -= h;
			group.append(
				svg("rect", {
					class: kind,
					x: i * STEP + 1,
					y: base,
					width: STEP - 2,
					height: h,
					"data-tokens": tokens,
				}),
			);
		}
		const title = svg("title", {});
		title.textContent = `call ${c.index + 1}${c.model === null ? "" : ` (${c.model})`}: ${int(c.cached)} cached, ${int(c.fresh)} new, ${c.output === null ? "output not recorded" : `${int(c.output)} output`}${c.recorded === null ? "" : `; recorded prompt ${int(c.recorded)}`}`;
		group.append(title);
		root.append(group);
	});
	// The recorded prompt, one line per run of calls that have it.
	let run: string[] = [];
	const flush = () => {
		if (run.length > 0) root.append(svg("polyline", { class: "recorded", points: run.join(" ") }));
		run = [];
	};
	calls.forEach((c, i) => {
		if (c.recorded === null) flush();
		else run.push(`${i * STEP + STEP / 2},${HEIGHT - y(c.recorded)}`);
	});
	flush();
	return root;
}

function legend(recorded: boolean): HTMLElement {
	const key = (kind: string, label: string) =>
		el("span", { class: `key key-${kind}` }, el("i", {}), label);
	return el(
		"p",
		{ class: "replay-legend muted" },
		key("cached", "cached"),
		key("new", "new"),
		key("output", "output"),
		recorded ? key("recorded", "recorded prompt") : undefined,
	);
}

new MutationObserver(() => void update()).observe(document.body, {
	attributes: true,
	attributeFilter: ["data-session", "data-generation", "data-state"],
});

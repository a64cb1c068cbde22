/**
 * A measured context for people: one row per section, part and message,
 * characters and tokens in columns, a bar proportional to tokens, budgets,
 * the cache-stable prefix and the provider's own count where recorded.
 */
import { escapeLine } from "../text/terminal.js";
import type { ContextSize, MessageSize, Size } from "./measure.js";

const BAR_WIDTH = 24;
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A bar of `width` cells for `value` out of `max`, in eighths of a cell. */
export function bar(value: number, max: number, width = BAR_WIDTH): string {
	if (max <= 0 || value <= 0) return "";
	const eighths = Math.max(1, Math.round((value / max) * width * 8));
	return "█".repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] as string);
}

const NUMBER = new Intl.NumberFormat("en-US");
const num = (n: number) => NUMBER.format(n);

/** The text report of `size` for the session `title`. */
export function formatSize(size: ContextSize, title: string): string {
	const rows: [string, Size | undefined, string][] = [];
	const sp = size.systemPrompt;
	rows.push([`system prompt${budgetNote(sp.tokens, sp.budget)}`, sp, ""]);
	for (const s of sp.sections) {
		rows.push([`  ${s.name} (${s.template}.hbs)${budgetNote(s.tokens, s.budget)}`, s, ""]);
		for (const p of s.parts ?? []) {
			rows.push([
				`${"  ".repeat(p.depth + 1)}${p.template}.hbs${budgetNote(p.tokens, p.budget)}`,
				p,
				"",
			]);
		}
	}
	rows.push([`messages (${size.messages.length})`, sum(size.messages), ""]);
	const last = size.messages.at(-1);
	for (const m of size.messages) {
		if (m === last && size.messages.length > 0) {
			rows.push([
				`  ┄┄ cache-stable prefix above: ${num(size.cacheStable.tokens)} tokens ┄┄`,
				undefined,
				"",
			]);
		}
		rows.push([messageLabel(m), m, m.preview]);
	}
	rows.push(["total", size.total, ""]);
	// Folds, not spreads: a spread passes one argument per message, past the stack at ~100k.
	const max = [...sp.sections, ...size.messages].reduce((m, p) => Math.max(m, p.tokens), 1);
	const labelWidth = Math.min(
		60,
		rows.reduce((w, [l]) => Math.max(w, l.length), 0),
	);
	const out = [
		`# ${escapeLine(title)}`,
		`# tokens: ${size.tokenizer.label}`,
		"",
		`${"".padEnd(labelWidth)}  ${"chars".padStart(10)}  ${"tokens".padStart(8)}`,
	];
	for (const [label, s, preview] of rows) {
		const text = escapeLine(
			label.length > labelWidth ? `${label.slice(0, labelWidth - 1)}…` : label,
		);
		if (s === undefined) {
			out.push(text);
			continue;
		}
		const isSum =
			label === "total" || label.startsWith("messages (") || label.startsWith("system prompt");
		const line = `${text.padEnd(labelWidth)}  ${num(s.chars).padStart(10)}  ${num(s.tokens).padStart(8)}  ${isSum ? "" : bar(s.tokens, max).padEnd(BAR_WIDTH)}`;
		out.push(`${line}${preview === "" ? "" : `  ${escapeLine(preview)}`}`.trimEnd());
	}
	out.push("");
	if (size.images.count > 0) {
		out.push(
			`images: ${size.images.count}, ~${num(size.images.tokens)} tokens (estimate: pixels / 750, at most 1,600 each; not in the total)`,
		);
	}
	const v = size.virtualized;
	if (v.results > 0) {
		out.push(
			`virtualized: ${v.results} tool result${v.results === 1 ? "" : "s"} sent as stubs: ${num(v.before)} → ${num(size.total.tokens)} tokens, ${num(v.saved)} saved (${percent(v.saved, v.before)})`,
		);
	}
	out.push(
		`cache-stable prefix: ${num(size.cacheStable.tokens)} tokens (the system prompt while its template set holds, and ${size.cacheStable.messages} of ${size.messages.length} messages)`,
	);
	const u = size.recordedUsage;
	out.push(
		u === null
			? "recorded usage: none in the log"
			: `recorded usage (the provider's count at the last assistant message): ${[
					["input", u.input],
					["output", u.output],
					["cache read", u.cacheRead],
					["cache write", u.cacheWrite],
					["total", u.total],
				]
					.filter(([, v]) => v !== undefined)
					.map(([k, v]) => `${k} ${num(v as number)}`)
					.join(" · ")}`,
	);
	return `${out.join("\n")}\n`;
}

function messageLabel(m: MessageSize): string {
	const kind = m.kind === m.role ? m.kind : `${m.kind}→${m.role}`;
	const stub =
		m.virtualized === undefined
			? ""
			: ` stub (${num(m.virtualized.tokens)} whole, ${m.virtualized.saved < 0 ? "+" : "−"}${num(Math.abs(m.virtualized.saved))})`;
	return `  #${m.index} ${kind} ${m.entryId}${m.images > 0 ? ` +${m.images} img` : ""}${stub}${budgetNote(m.tokens, m.budget)}`;
}

function percent(part: number, whole: number): string {
	return whole <= 0 ? "0%" : `${((part / whole) * 100).toFixed(1)}%`;
}

function budgetNote(tokens: number, budget: number | undefined): string {
	if (budget === undefined) return "";
	const used = Math.round((tokens / budget) * 100);
	return tokens > budget
		? ` [OVER budget ${num(budget)}: ${used}%]`
		: ` [budget ${num(budget)}: ${used}%]`;
}

function sum(sizes: readonly Size[]): Size {
	return sizes.reduce((a, s) => ({ chars: a.chars + s.chars, tokens: a.tokens + s.tokens }), {
		chars: 0,
		tokens: 0,
	});
}

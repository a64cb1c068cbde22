/**
 * A compact chart for the terminal: one column per call (or per group of
 * calls, when there are more calls than columns), its height the call's
 * context, cached tokens drawn light and new tokens dark on top of them.
 */
import { paint } from "../text/terminal.js";

/** One column's values. */
export interface Bar {
	cached: number;
	fresh: number;
}

const WIDTH = 72;
const HEIGHT = 8;
const CACHED = "░";
const NEW = "█";

/** The chart of `bars` (first to last, left to right), with its scale and legend. */
export function chart(
	bars: readonly Bar[],
	options: { color?: boolean; label?: string } = {},
): string {
	if (bars.length === 0) return "";
	const c = paint(options.color === true);
	const columns = group(bars, WIDTH);
	const top = Math.max(1, ...columns.map((b) => b.cached + b.fresh));
	const rows: string[] = [];
	for (let row = HEIGHT; row >= 1; row--) {
		const floor = ((row - 1) / HEIGHT) * top;
		let line = "";
		for (const b of columns) {
			const total = b.cached + b.fresh;
			// A cell is filled when the bar reaches past its middle; its kind is what lies there.
			const middle = floor + top / HEIGHT / 2;
			if (total < middle && !(row === 1 && total > 0)) line += " ";
			else line += middle <= b.cached || b.fresh === 0 ? c.cyan(CACHED) : c.red(NEW);
		}
		const scale = row === HEIGHT ? ` ${compact(top)}` : row === 1 ? " 0" : "";
		rows.push(`│${line}${scale}`);
	}
	const per = Math.ceil(bars.length / WIDTH);
	rows.push(`└${"─".repeat(columns.length)}`);
	const what = options.label ?? "call";
	rows.push(
		`${c.cyan(CACHED)} cached  ${c.red(NEW)} new  · ${bars.length} ${what}${bars.length === 1 ? "" : "s"}${per > 1 ? `, ${per} a column (mean)` : ""}`,
	);
	return `${rows.join("\n")}\n`;
}

/** At most `width` columns: consecutive bars averaged in groups of equal size. */
function group(bars: readonly Bar[], width: number): Bar[] {
	const per = Math.ceil(bars.length / width);
	if (per <= 1) return [...bars];
	const out: Bar[] = [];
	for (let i = 0; i < bars.length; i += per) {
		const slice = bars.slice(i, i + per);
		out.push({
			cached: slice.reduce((s, b) => s + b.cached, 0) / slice.length,
			fresh: slice.reduce((s, b) => s + b.fresh, 0) / slice.length,
		});
	}
	return out;
}

/** 1234 → 1.2k, 1234567 → 1.2M. */
export function compact(n: number): string {
	if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
	if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
	return String(Math.round(n));
}

/**
 * Measuring helpers for the benchmark: medians over repeated runs (with a GC
 * between runs, outside the timed region), the two "floors" (the least any
 * loader must do: read the file and JSON.parse every line, objects kept) and
 * plain-text table formatting.
 */

import { constants } from "node:buffer";
import { execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const NEWLINE = 0x0a;
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Wall-clock ms of Node processes started at once, one per argument list,
 * until the last ends (rejects if one fails). What a machine gives two
 * independent jobs is the ceiling of any work shared out on it.
 */
export function concurrently(argLists) {
	const start = performance.now();
	return Promise.all(
		argLists.map(
			(args) =>
				new Promise((resolve, reject) => {
					const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
					let stderr = "";
					child.stderr.on("data", (d) => {
						stderr += d;
					});
					child.on("close", (code) =>
						code === 0 || code === 1 ? resolve() : reject(new Error(`exit ${code}: ${stderr}`)),
					);
				}),
		),
	).then(() => performance.now() - start);
}

/** Collects garbage when the process runs with --expose-gc. */
export function gc() {
	globalThis.gc?.();
}

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times each function of `fns` `runs` times after `warmup` untimed rounds,
 * interleaved (the order rotates each round, so drift and GC state hit all
 * alike), a GC before each call; a result stays alive until the clock stops.
 * Returns the ms of every timed run, by name, in round order.
 * @template {string} K
 * @param {Record<K, () => unknown>} fns
 * @param {{runs: number, warmup?: number}} plan
 * @returns {Record<K, number[]>}
 */
export function timeRounds(fns, { runs, warmup = 1 }) {
	const names = Object.keys(fns);
	for (let i = 0; i < warmup; i++) for (const name of names) fns[name]();
	const times = Object.fromEntries(names.map((name) => [name, []]));
	for (let i = 0; i < runs; i++) {
		for (let k = 0; k < names.length; k++) {
			const name = names[(i + k) % names.length];
			gc();
			const start = performance.now();
			const kept = fns[name]();
			times[name].push(performance.now() - start);
			if (kept === undefined)
				throw new Error(`${name}: a timed function must return what it built`);
		}
	}
	gc();
	return times;
}

/**
 * {@link timeRounds} with every run in a fresh process (bench/time-child.js),
 * in the same rotating order: for big logs, where a process's earlier runs
 * would leave a grown, fragmented heap behind.
 */
export function timeRoundsInChildren(names, path, { runs }) {
	const times = Object.fromEntries(names.map((name) => [name, []]));
	const child = fileURLToPath(new URL("./time-child.js", import.meta.url));
	for (let i = 0; i < runs; i++) {
		for (let k = 0; k < names.length; k++) {
			const name = names[(i + k) % names.length];
			const out = execFileSync(process.execPath, ["--expose-gc", child, name, path], {
				encoding: "utf8",
				maxBuffer: 1024 * 1024,
			});
			times[name].push(JSON.parse(out.trim().split("\n").at(-1)).ms);
		}
	}
	return times;
}

/** The median of the per-round ratios `a[i] / b[i]`: pairs cancel drift between rounds. */
export function pairedRatio(a, b) {
	return median(a.map((value, i) => value / b[i]));
}

/** Runs and warm-ups for a file of `entries` entries: more for small, fewer for big. */
export function runsFor(entries) {
	if (entries <= 1_000) return { runs: 51, warmup: 5 };
	if (entries <= 10_000) return { runs: 21, warmup: 3 };
	if (entries <= 100_000) return { runs: 11, warmup: 2 };
	return { runs: 5, warmup: 1 };
}

/** Whether `path` fits in one JS string (V8's max string length). */
export function fitsInString(path) {
	return statSync(path).size <= constants.MAX_STRING_LENGTH;
}

/** The floor as the issue words it: readFileSync utf8, split, JSON.parse each line, kept. */
export function stringFloor(path) {
	const out = [];
	for (const line of readFileSync(path, "utf8").split("\n")) {
		if (line !== "") out.push(JSON.parse(line));
	}
	return out;
}

/**
 * The same floor over bytes: 4 MB chunks into a Buffer, indexOf("\n"),
 * toString per line, JSON.parse, objects kept. Works past the max string length.
 */
export function bufferFloor(path) {
	const out = [];
	const fd = openSync(path, "r");
	let buf = Buffer.allocUnsafe(CHUNK_BYTES);
	let filled = 0;
	try {
		for (;;) {
			if (filled === buf.length) buf = grow(buf, filled);
			const n = readSync(fd, buf, filled, buf.length - filled, null);
			if (n === 0) break;
			filled += n;
			const view = buf.subarray(0, filled);
			let start = 0;
			for (let nl = view.indexOf(NEWLINE); nl !== -1; nl = view.indexOf(NEWLINE, start)) {
				if (nl > start) out.push(JSON.parse(view.toString("utf8", start, nl)));
				start = nl + 1;
			}
			buf.copy(buf, 0, start, filled);
			filled -= start;
		}
		if (filled > 0) out.push(JSON.parse(buf.toString("utf8", 0, filled)));
	} finally {
		closeSync(fd);
	}
	return out;
}

function grow(buf, filled) {
	const bigger = Buffer.allocUnsafe(buf.length * 2);
	buf.copy(bigger, 0, 0, filled);
	return bigger;
}

/** Formats a number with `digits` decimals (or "–" when missing). */
export function fmt(value, digits = 1) {
	return value === undefined || value === null || Number.isNaN(value) ? "–" : value.toFixed(digits);
}

/**
 * An aligned plain-text table: the first column left-aligned, the others right.
 * @param {string[]} headers
 * @param {string[][]} rows
 */
export function table(headers, rows) {
	const all = [headers, ...rows];
	const widths = headers.map((_, c) => Math.max(...all.map((row) => String(row[c] ?? "").length)));
	const line = (row) =>
		row
			.map((cell, c) =>
				c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]),
			)
			.join("  ")
			.trimEnd();
	return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

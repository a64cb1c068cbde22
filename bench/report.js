/**
 * The benchmark's report: one aligned plain-text table per measurement, then a
 * verdict per target (PASS, FAIL, or SKIP when the run did not measure it).
 */
import { fmt, table } from "./measure.js";

/** The targets, next to which every figure is printed. */
export const TARGET = {
	floor: 1.3,
	floorGoal: 1.05,
	linearity: 1.25,
	reloadMs: 1,
	reloadShare: 0.05,
	renderUs: 20,
	rssMb: 400,
};

/** 1000 → "1k", 1000000 → "1M". */
export function label(entries) {
	return entries >= 1_000_000 ? `${entries / 1_000_000}M` : `${entries / 1_000}k`;
}

export function printLoads(loads) {
	const rows = loads.map((r) => [
		`${r.shape} ${label(r.entries)}`,
		fmt(r.mb),
		r.str === undefined ? "n/a*" : fmt(r.str),
		fmt(r.buf),
		fmt(r.load),
		r.str === undefined ? "n/a*" : `${fmt(r.ratios.str, 2)}x`,
		`${fmt(r.ratios.buf, 2)}x`,
		fmt((r.load * 1000) / r.entries, 2),
		String(r.runs),
	]);
	const headers = ["log", "file MB", "floor str ms", "floor buf ms", "load ms"];
	headers.push("load/str", "load/buf", "us/entry", "runs");
	console.log(
		"\n1-2. Full load vs floor, time per entry (fresh ContextService per load; GC between runs)",
	);
	console.log(table(headers, rows));
	if (loads.some((r) => r.str === undefined)) {
		console.log(
			"* the file is longer than V8's max string length: readFileSync(utf8) cannot hold it;" +
				" its floor is the Buffer line reader (floor buf).",
		);
	}
	console.log(
		"ratios: median of per-round ratios (each round times floors and load back to back, order" +
			" rotating), which cancels drift between rounds; ms columns: plain medians.",
	);
	console.log(
		"up to 100k: in process, JIT-warm (as in a daemon); 1M: each run in a fresh process.",
	);
	const fresh = loads.filter((r) => r.freshLoad !== undefined);
	if (fresh.length > 0) {
		console.log("fresh-process runs (used for time per entry and linearity):");
		for (const r of fresh) {
			console.log(
				`  ${r.shape} ${r.entries}: load ${fmt(r.freshLoad)} ms, floor buf ${fmt(r.freshBuf)} ms, ${fmt((r.freshLoad / r.entries) * 1000, 2)} us/entry`,
			);
		}
	}
	console.log(`target: 100k load <= ${TARGET.floor}x floor (floor = floor str where it exists)`);
}

export function printReloads(reloads, appends) {
	const rows = reloads.map((r) => [
		r.name,
		fmt(r.full),
		fmt(r.warm, 3),
		`${fmt((100 * r.warm) / r.full, 2)}%`,
		fmt(r.afterGc, 3),
		`${fmt((100 * r.afterGc) / r.full, 2)}%`,
		String(r.messages),
		r.target,
	]);
	const headers = [
		"log",
		"full load ms",
		"reload ms",
		"reload/full",
		"after GC ms",
		"after GC/full",
	];
	headers.push("messages", "target");
	console.log(
		`\n3. Reload after appending one entry (medians of ${appends} appends each, one service)`,
	);
	console.log(table(headers, rows));
	console.log(
		"reload: back to back (steady state); after GC: a forced full GC (global.gc) before each" +
			" reload, which leaves V8 to refill caches it clears on a full GC (worst case).",
	);
}

export function printRender(r) {
	console.log(
		"\n4. System prompt render (tinybench, 2 s; set compiled once; 20 tools, memory, lineage)",
	);
	const headers = ["render", "median us", "p99 us", "samples", "prompt chars", "target"];
	const row = ["renderSystemPrompt", fmt(r.p50, 2), fmt(r.p99, 2), String(r.samples)];
	row.push(String(r.length), `median <= ${TARGET.renderUs} us`);
	console.log(table(headers, [row]));
}

export function printPeaks(peaks) {
	const rows = peaks.map((p) =>
		p.error
			? [p.name, fmt(p.mb), "–", "–", "–", "–", p.error]
			: [
					p.name,
					p.mb === 0 ? "–" : fmt(p.mb),
					fmt(p.rss),
					p.mb === 0 ? "–" : `${fmt(p.rss / p.mb, 2)}x`,
					String(p.messages),
					fmt(p.ms),
					p.big ? `<= ${TARGET.rssMb} MB RSS` : "",
				],
	);
	console.log("\n5. Peak memory (one load per child process: node --expose-gc bench/child.js)");
	const headers = ["log", "file MB", "peak RSS MB", "RSS/file", "messages", "load ms", "target"];
	console.log(table(headers, rows));
	console.log(
		"peak RSS: the child's VmHWM (/proc/self/status); getrusage maxRSS is not used: on Linux" +
			" it carries the parent's RSS over fork + exec.",
	);
}

/** One verdict line: PASS, FAIL or SKIP, the target, the figure. */
export function verdict(ok, target, figure) {
	const status = ok === undefined ? "SKIP" : ok ? "PASS" : "FAIL";
	return { status, line: `${status}  ${target.padEnd(46)} ${figure}` };
}

export function verdicts({ loads, reloads, render, peaks }, full) {
	const row = (shape, n) => loads.find((l) => l.shape === shape && l.entries === n);
	/** Time per entry, from the fresh-process runs where there are some (both linearity sizes). */
	const perEntry = (n, shape = "linear") => {
		const r = row(shape, n);
		return r && (r.freshLoad ?? r.load) / r.entries;
	};
	/** How much the floor's own time per entry grows from 100k to 1M, on the same files. */
	const floorGrowth = (shape) => {
		const [a, b] = [row(shape, 100_000), row(shape, 1_000_000)];
		return a && b && (b.freshBuf ?? b.buf) / b.entries / ((a.freshBuf ?? a.buf) / a.entries);
	};
	const linearity = (shape) => {
		const ratio = perEntry(1_000_000, shape) / perEntry(100_000, shape);
		return verdict(
			full ? ratio <= TARGET.linearity : undefined,
			`per-entry time at 1M <= ${TARGET.linearity}x 100k (${shape}, fresh processes)`,
			full
				? `${fmt(ratio, 2)}x (${fmt(perEntry(1_000_000, shape) * 1000, 2)} vs ${fmt(perEntry(100_000, shape) * 1000, 2)} us/entry; the floor's own: ${fmt(floorGrowth(shape), 2)}x)`
				: `needs --full (10k -> 100k: ${fmt(perEntry(100_000) / perEntry(10_000), 2)}x)`,
		);
	};
	const at100k = loads.find((l) => l.shape === "linear" && l.entries === 100_000);
	const floorRatio = at100k && (at100k.ratios.str ?? at100k.ratios.buf);
	const [linReload, cmpReload] = reloads;
	const big = peaks.find((p) => p.big);
	return [
		verdict(
			floorRatio && floorRatio <= TARGET.floor,
			`100k load <= ${TARGET.floor}x floor`,
			floorRatio
				? `${fmt(floorRatio, 2)}x (${fmt(at100k.load)} ms vs ${fmt(at100k.floor)} ms)`
				: "–",
		),
		verdict(
			floorRatio && floorRatio <= TARGET.floorGoal,
			`100k load <= ${TARGET.floorGoal}x floor (goal)`,
			floorRatio ? `${fmt(floorRatio, 3)}x` : "–",
		),
		linearity("linear"),
		...(full ? [linearity("compacted")] : []),
		verdict(
			linReload && linReload.warm / linReload.full <= TARGET.reloadShare,
			`reload <= ${TARGET.reloadShare * 100}% of full load (linear 100k)`,
			linReload
				? `${fmt((100 * linReload.warm) / linReload.full, 2)}% (${fmt(linReload.warm, 2)} ms; after GC ${fmt(linReload.afterGc, 2)} ms)`
				: "–",
		),
		verdict(
			cmpReload && cmpReload.warm <= TARGET.reloadMs,
			`reload <= ${TARGET.reloadMs} ms (${cmpReload?.name ?? "compacted"})`,
			cmpReload
				? `${fmt(cmpReload.warm, 3)} ms (after GC ${fmt(cmpReload.afterGc, 3)} ms)${full ? "" : "; 1M needs --full"}`
				: "–",
		),
		verdict(
			render && render.p50 <= TARGET.renderUs,
			`render median <= ${TARGET.renderUs} us`,
			render ? `${fmt(render.p50, 2)} us (p99 ${fmt(render.p99, 2)} us)` : "–",
		),
		verdict(
			big ? big.rss !== undefined && big.rss <= TARGET.rssMb : undefined,
			`500 MB compacted log within ${TARGET.rssMb} MB RSS`,
			big ? (big.error ?? `${fmt(big.rss)} MB RSS (file ${fmt(big.mb)} MB)`) : "needs --full",
		),
	];
}

/**
 * One 30,000-line snapshot diff in a fresh process, for its time and peak
 * memory: `node --expose-gc bench/line-diff-child.js <case>` prints
 * `{"ms", "beforeKb", "peakKb", "lines"}`: VmHWM (Linux) once the two texts
 * are built, and after the diff, so the difference is what the diff took.
 */
import { readFileSync } from "node:fs";
import { diffLines } from "../dist/check/snapshot.js";
import { mulberry32 } from "../dist/text/prng.js";

const LINES = 30_000;

function vmHwmKb() {
	const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
	return match === null ? 0 : Number(match[1]);
}

/** The two texts of a case: a rendering and its drifted snapshot. */
function texts(kind) {
	const random = mulberry32(7);
	const words = ["{", "}", "  },", "]", '    "type": "text",', "  {", '    "role": "user",'];
	const a = Array.from({ length: LINES }, (_, i) =>
		kind === "scrambled"
			? words[Math.floor(random() * words.length)]
			: `line ${i}: ${words[i % 7]}`,
	);
	const b =
		kind === "scrambled"
			? Array.from({ length: LINES }, () => words[Math.floor(random() * words.length)])
			: kind === "rewritten"
				? a.map((l) => `${l} (v2)`)
				: a.map((l, i) => (i % 10 === 0 ? `${l} changed` : l));
	return [a.join("\n"), b.join("\n")];
}

const [a, b] = texts(process.argv[2] ?? "tenth");
globalThis.gc?.();
const beforeKb = vmHwmKb();
const start = performance.now();
const diff = diffLines(a, b);
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, beforeKb, peakKb: vmHwmKb(), lines: diff.split("\n").length }));

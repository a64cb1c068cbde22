/**
 * Why a daemon keeps a pool of sidecars: one sidecar answers its requests
 * one at a time, so a slow load (the first load of a long session, read
 * whole) holds every request behind it. Measured: the round trip of a load
 * of a small session (its session open, one entry appended, `since` its
 * cursor) alone, behind a first load of a large session on the same
 * sidecar, and with the large one on another sidecar of a pool of two.
 * Medians over ROUNDS rounds, each large load cold (a new sidecar).
 *
 *     node bench/sidecar-pool.js [ENTRIES]   (default 100,000 entries in the large log)
 */
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { linear } from "./generate.js";
import { fmt, median } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = 5;
const LARGE = Number(process.argv[2] ?? 100_000);
const SMALL = 1_000;

/** `serve --stdio` as a child; `call` resolves to the reply and the round trip, from write to reply. */
function sidecar() {
	const child = spawn(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), "serve", "--stdio"], {
		stdio: ["pipe", "pipe", "inherit"],
	});
	const waiting = [];
	createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()?.(line));
	let id = 0;
	const call = (method, params) =>
		new Promise((resolve, reject) => {
			const start = performance.now();
			waiting.push((line) => {
				const reply = JSON.parse(line);
				if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
				else resolve({ result: reply.result, ms: performance.now() - start });
			});
			child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })}\n`);
		});
	const stop = async () => {
		await call("shutdown", {});
		child.stdin.end();
	};
	return { call, stop };
}

let appended = 0;
/** Appends a user message under the current leaf of the log at `path`. */
function append(path, leaf) {
	const timestamp = Date.UTC(2027, 0, 1) + ++appended * 1000;
	const id = `pool-${appended}`;
	const message = { role: "user", content: [{ type: "text", text: "And then?" }], timestamp };
	const entry = {
		type: "message",
		id,
		parentId: leaf,
		timestamp: new Date(timestamp).toISOString(),
		message,
	};
	appendFileSync(path, `${JSON.stringify(entry)}\n`);
	return id;
}

/** The small session's turn: append, load from the cursor; its round trip and the next state. */
function turn(side, small, state) {
	const leaf = append(small, state.leaf);
	return side.call("load", { path: small, since: state.cursor }).then(({ result, ms }) => ({
		ms,
		state: { leaf, cursor: result.cursor },
	}));
}

const large = join(ROOT, "bench/out/pool-large.jsonl");
const small = join(ROOT, "bench/out/pool-small.jsonl");
copyFileSync(linear(LARGE), large);
copyFileSync(linear(SMALL), small);

const alone = [];
const behind = [];
const pooled = [];
const largeLoad = [];
for (let round = 0; round < ROUNDS; round++) {
	const a = sidecar();
	const b = sidecar();
	const first = (await a.call("load", { path: small })).result;
	let state = { leaf: first.meta.leafId, cursor: first.cursor };
	// Alone: the small session's turn on an idle sidecar.
	let t = await turn(a, small, state);
	alone.push(t.ms);
	state = t.state;
	// Behind: the large session's first load goes to the same sidecar just before the turn.
	const slow = a.call("load", { path: large });
	t = await turn(a, small, state);
	behind.push(t.ms);
	state = t.state;
	largeLoad.push((await slow).ms);
	// Pooled: the large session on the other sidecar (cold there), the small one's turn on its own.
	const other = b.call("load", { path: large });
	t = await turn(a, small, state);
	pooled.push(t.ms);
	await other;
	await Promise.all([a.stop(), b.stop()]);
}
rmSync(large);
rmSync(small);

const largeText = LARGE.toLocaleString("en-US");
const rows = [
	["alone on its sidecar", alone],
	[`behind a first load of ${largeText} entries, one sidecar`, behind],
	["the large load on another sidecar (pool of 2)", pooled],
];
console.log(
	`a small session's turn (${SMALL.toLocaleString("en-US")} entries, one appended, load with since):`,
);
for (const [label, values] of rows)
	console.log(`  ${label.padEnd(56)}${fmt(median(values)).padStart(9)} ms`);
console.log(`the large session's first load: ${fmt(median(largeLoad))} ms (median of ${ROUNDS})`);

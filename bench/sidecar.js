/**
 * The sidecar's per-turn cost: `serve --stdio` as a child process, a
 * session opened once, then one entry appended before each `load` with the
 * cursor of the reply before, at 10k, 100k and 1M entries and on a repaired
 * tree (an orphan and a duplicate id). Round trips are timed from the
 * request's write to the reply's last byte; beside them, the in-process
 * reload of the same append (`ContextService.loadSync`), to tell the
 * sidecar's own share from the service's.
 */
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { ContextService } from "../dist/index.js";
import { fmt, median, table } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIRST_LOADS = 2;
const APPENDS = 20;

/** A JSON-RPC client over the sidecar's stdio: `call(method, params)` → { reply, ms, bytes }. */
function startSidecar() {
	const child = spawn(process.execPath, [join(ROOT, "dist/cli/bin.cjs"), "serve", "--stdio"], {
		stdio: ["pipe", "pipe", "inherit"],
	});
	const waiting = [];
	createInterface({ input: child.stdout }).on("line", (line) => {
		waiting.shift()?.(line);
	});
	let id = 0;
	const call = (method, params) =>
		new Promise((resolve, reject) => {
			const start = performance.now();
			waiting.push((line) => {
				const ms = performance.now() - start;
				const reply = JSON.parse(line);
				if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
				else resolve({ result: reply.result, ms, bytes: Buffer.byteLength(line) + 1 });
			});
			child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })}\n`);
		});
	const stop = async () => {
		await call("shutdown", {});
		child.stdin.end();
	};
	return { call, stop };
}

function entry(parentId, i) {
	const timestamp = Date.UTC(2027, 0, 1) + i * 1000;
	return {
		type: "message",
		id: `sidecar-append-${i}`,
		parentId,
		timestamp: new Date(timestamp).toISOString(),
		message: { role: "user", content: [{ type: "text", text: `And then (${i}).` }], timestamp },
	};
}

/**
 * A log whose tree is repaired, its branch as long as the source's: an
 * orphan (a parentId naming no entry), then the last entry again under its
 * own id (a duplicate: the later wins, and stays the leaf).
 */
function repairedCopy(source, copy) {
	copyFileSync(source, copy);
	const lines = readFileSync(source, "utf8").trimEnd().split("\n");
	const last = JSON.parse(lines.at(-1));
	const orphan = { ...entry("sidecar-missing-parent", 0), id: "sidecar-orphan" };
	appendFileSync(copy, `${JSON.stringify(orphan)}\n${JSON.stringify(last)}\n`);
}

/**
 * One session's round trips on a scratch copy of `source` (`repaired`: with
 * an orphan and a duplicate id added first): the first load, then a load
 * with the last cursor after each appended entry, each a continuation.
 */
async function perTurn(sidecar, source, repaired) {
	const copy = join(ROOT, "bench/out", `scratch-sidecar-${process.pid}-${basename(source)}`);
	if (repaired) repairedCopy(source, copy);
	else copyFileSync(source, copy);
	try {
		const firsts = [];
		let reply;
		for (let i = 0; i < FIRST_LOADS; i++) {
			await sidecar.call("close", { path: copy });
			reply = await sidecar.call("load", { path: copy });
			firsts.push(reply);
		}
		const appends = [];
		let leaf = reply.result.meta.leafId;
		let cursor = reply.result.cursor;
		for (let i = 0; i < APPENDS + 3; i++) {
			appendFileSync(copy, `${JSON.stringify(entry(leaf, i + 2))}\n`);
			const next = await sidecar.call("load", { path: copy, since: cursor });
			if (next.result.reset || next.result.messages.length !== 1) {
				throw new Error(
					`an append came back as a reset (${next.result.resetReason}) or not as one message`,
				);
			}
			if (i >= 3) appends.push(next);
			leaf = next.result.meta.leafId;
			cursor = next.result.cursor;
		}
		await sidecar.call("close", { path: copy });
		return {
			first: median(firsts.map((x) => x.ms)),
			append: median(appends.map((x) => x.ms)),
			appendBytes: median(appends.map((x) => x.bytes)),
			messages: reply.result.messages.length,
			copy,
		};
	} finally {
		rmSync(copy, { force: true });
	}
}

/**
 * Times one sidecar on each log of `lengths` ([label, path], the shortest
 * first) and on the first of them repaired; prints a table and returns the
 * rows, with the in-process reload of one append beside the first.
 */
export async function measureSidecar(lengths, progress) {
	const sidecar = startSidecar();
	try {
		const rows = [];
		for (const [name, path] of lengths) {
			progress(`sidecar round trips: ${name}`);
			rows.push({ name, ...(await perTurn(sidecar, path, false)) });
		}
		const [shortName, shortPath] = lengths[0];
		progress(`sidecar round trips: ${shortName}, repaired`);
		rows.push({
			name: `${shortName}, repaired`,
			repaired: true,
			...(await perTurn(sidecar, shortPath, true)),
		});
		const service = new ContextService();
		const copy = join(ROOT, "bench/out", `scratch-service-${process.pid}-${basename(shortPath)}`);
		copyFileSync(shortPath, copy);
		let leaf = service.loadSync(copy).meta.leafId;
		const inProcess = [];
		for (let i = 0; i < APPENDS; i++) {
			appendFileSync(copy, `${JSON.stringify(entry(leaf, 1000 + i))}\n`);
			const start = performance.now();
			leaf = service.loadSync(copy).meta.leafId;
			inProcess.push(performance.now() - start);
		}
		rmSync(copy, { force: true });
		const base = rows[0].append;
		console.log(`\nSidecar (serve --stdio), round trips, medians of ${APPENDS} appends each`);
		console.log(
			table(
				[
					"log",
					"messages",
					"first load ms",
					"load since cursor, one entry appended, ms",
					"vs the first row",
					"reply bytes",
				],
				rows.map((r) => [
					r.name,
					String(r.messages),
					fmt(r.first),
					fmt(r.append, 2),
					`${fmt(r.append / base, 2)}x`,
					String(r.appendBytes),
				]),
			),
		);
		console.log(
			`  of which the service's reload, in process (${shortName}): ${fmt(median(inProcess), 2)} ms`,
		);
		return rows;
	} finally {
		await sidecar.stop().catch(() => {});
	}
}

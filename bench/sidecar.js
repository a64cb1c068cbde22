/**
 * The sidecar's per-turn cost: `serve --stdio` as a child process, a
 * 100k-entry session opened once, then one entry appended before each `load`
 * with the cursor of the reply before. Round trips are timed from the
 * request's write to the reply's last byte; beside them, the in-process
 * reload of the same append (`ContextService.loadSync`), to tell the
 * sidecar's own share from the service's.
 */
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { ContextService } from "../dist/index.js";
import { fmt, median, table } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIRST_LOADS = 3;
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

/** Times the sidecar on a scratch copy of `source`; prints a table and returns the medians. */
export async function measureSidecar(source, progress) {
	progress(`sidecar round trips: ${basename(source)}`);
	const copy = join(ROOT, "bench/out", `scratch-sidecar-${process.pid}-${basename(source)}`);
	copyFileSync(source, copy);
	const sidecar = startSidecar();
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
			appendFileSync(copy, `${JSON.stringify(entry(leaf, i))}\n`);
			const next = await sidecar.call("load", { path: copy, since: cursor });
			if (next.result.reset || next.result.messages.length !== 1) {
				throw new Error("an append came back as a reset or not as one message");
			}
			if (i >= 3) appends.push(next);
			leaf = next.result.meta.leafId;
			cursor = next.result.cursor;
		}
		const service = new ContextService();
		service.loadSync(copy);
		const inProcess = [];
		for (let i = 0; i < APPENDS; i++) {
			appendFileSync(copy, `${JSON.stringify(entry(leaf, APPENDS + 3 + i))}\n`);
			const start = performance.now();
			leaf = service.loadSync(copy).meta.leafId;
			inProcess.push(performance.now() - start);
		}
		const r = {
			first: median(firsts.map((x) => x.ms)),
			firstBytes: median(firsts.map((x) => x.bytes)),
			append: median(appends.map((x) => x.ms)),
			appendBytes: median(appends.map((x) => x.bytes)),
			service: median(inProcess),
			messages: reply.result.messages.length,
		};
		console.log(
			`\nSidecar (serve --stdio) on linear 100k (${r.messages} messages), round trips, medians`,
		);
		console.log(
			table(
				["request", "ms", "reply bytes"],
				[
					[`first load (of ${FIRST_LOADS})`, fmt(r.first), String(r.firstBytes)],
					[
						`load since cursor, one entry appended (of ${APPENDS})`,
						fmt(r.append, 2),
						String(r.appendBytes),
					],
					["  of which the service's reload (in process)", fmt(r.service, 2), ""],
				],
			),
		);
		return r;
	} finally {
		await sidecar.stop().catch(() => {});
		rmSync(copy, { force: true });
	}
}

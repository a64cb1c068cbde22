/**
 * What importing costs, measured side by side (part of `npm run bench`;
 * on its own: `npm run build && node bench/import.js`):
 *  1. `theway-context import` of a large generated Claude Code transcript
 *     and of a large Codex rollout against `render --format llm` of the same
 *     source and of the log the import wrote, as whole processes in
 *     interleaved rounds. Target: import ≤ 1.5× the render of its log (the
 *     stricter of the two: the render of a source converts it too).
 *  2. `theway-context import` of a folder of 1,000 generated sessions on all
 *     cores against the same with `--jobs 1`, as whole processes.
 * Sources are written deterministically to a temporary folder, removed after.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importSession } from "../dist/import/convert.js";
import { concurrently } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/bin.cjs");
const TARGET = 1.5;

const time = (i) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const pad = (k, n) => `line ${k} `.repeat(Math.ceil(n / 8)).slice(0, n);

/** A Claude Code transcript of `turns` turns: split responses, 3 parallel calls, ~1 kB results, attachments. */
export function claudeTranscript(turns) {
	const out = [];
	let n = 0;
	let last = null;
	const rec = (type, parent, extra) => {
		n++;
		const r = {
			parentUuid: parent,
			isSidechain: false,
			type,
			uuid: `u${n}`,
			timestamp: time(n),
			sessionId: "bench",
			cwd: "/bench",
			version: "2.1.0",
			...extra,
		};
		out.push(JSON.stringify(r));
		last = r.uuid;
		return r.uuid;
	};
	for (let t = 0; t < turns; t++) {
		rec("user", last, { message: { role: "user", content: `Task ${t}: ${pad(t, 200)}` } });
		const id = `msg${t}`;
		const usage = { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 1000 };
		const message = (content) => ({
			id,
			role: "assistant",
			model: "claude-opus-4-5",
			content,
			usage,
			stop_reason: null,
		});
		rec("assistant", last, {
			message: message([{ type: "thinking", thinking: pad(t, 300), signature: "s" }]),
		});
		rec("assistant", last, { message: message([{ type: "text", text: pad(t, 200) }]) });
		const holders = [0, 1, 2].map((c) =>
			rec("assistant", last, {
				message: message([
					{ type: "tool_use", id: `t${t}-${c}`, name: "Read", input: { path: `f${c}` } },
				]),
			}),
		);
		for (let c = 2; c >= 0; c--) {
			rec("user", holders[c], {
				message: {
					role: "user",
					content: [{ type: "tool_result", tool_use_id: `t${t}-${c}`, content: pad(c, 1000) }],
				},
				toolUseResult: { type: "text" },
			});
			rec("attachment", last, { attachment: { type: "hook_success", content: "ok" } });
		}
		rec("assistant", last, {
			message: {
				...message([{ type: "text", text: pad(t, 300) }]),
				id: `done${t}`,
				stop_reason: "end_turn",
			},
		});
	}
	return `${out.join("\n")}\n`;
}

/** A Codex rollout of `turns` turns: reasoning, 3 shell calls with ~1 kB outputs, token counts. */
export function codexRollout(turns) {
	const out = [];
	let i = 0;
	const env = (type, payload) => out.push(JSON.stringify({ timestamp: time(i++), type, payload }));
	env("session_meta", { id: "bench", timestamp: time(0), cwd: "/bench", model_provider: "openai" });
	for (let t = 0; t < turns; t++) {
		env("turn_context", { cwd: "/bench", model: "gpt-5", effort: "medium" });
		env("response_item", {
			type: "message",
			role: "user",
			content: [{ type: "input_text", text: `Task ${t}: ${pad(t, 200)}` }],
		});
		env("event_msg", { type: "user_message", message: "x" });
		for (let c = 0; c < 3; c++) {
			env("response_item", {
				type: "reasoning",
				summary: [{ type: "summary_text", text: pad(c, 200) }],
				encrypted_content: "x".repeat(200),
			});
			env("response_item", {
				type: "function_call",
				name: "shell",
				arguments: JSON.stringify({ command: ["cat", `f${c}`] }),
				call_id: `c${t}-${c}`,
			});
			env("response_item", {
				type: "function_call_output",
				call_id: `c${t}-${c}`,
				output: JSON.stringify({ output: pad(c, 1000), metadata: { exit_code: 0 } }),
			});
			env("event_msg", {
				type: "token_count",
				info: { last_token_usage: { input_tokens: 100, output_tokens: 20 } },
			});
		}
		env("response_item", {
			type: "message",
			role: "assistant",
			content: [{ type: "output_text", text: pad(t, 300) }],
		});
	}
	return `${out.join("\n")}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Runs the CLI with `args`; its wall-clock ms (throws on a failure). */
function cli(args) {
	const s = process.hrtime.bigint();
	const r = spawnSync(process.execPath, [CLI, ...args], {
		stdio: ["ignore", "ignore", "pipe"],
		maxBuffer: 1 << 28,
	});
	const took = Number(process.hrtime.bigint() - s) / 1e6;
	if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
	return took;
}

/**
 * One source, as whole processes in interleaved rounds: `import` of it,
 * `render --format llm` of the same source (read directly), and the same
 * render of the log the import wrote.
 */
function single(dir, name, text, rounds) {
	const source = join(dir, "sources", `${name}.jsonl`);
	const log = join(dir, `${name}.theway.jsonl`);
	mkdirSync(join(dir, "sources"), { recursive: true });
	writeFileSync(source, text);
	writeFileSync(log, importSession(readFileSync(source), source).text);
	const out = join(dir, `${name}.out.jsonl`);
	const t = { import: [], source: [], log: [] };
	for (let r = 0; r < rounds + 1; r++) {
		const imp = cli(["import", source, "--out", out, "--quiet"]);
		const src = cli(["render", source, "--format", "llm", "--quiet"]);
		const ren = cli(["render", log, "--format", "llm", "--quiet"]);
		if (r > 0) {
			t.import.push(imp);
			t.source.push(src);
			t.log.push(ren);
		}
	}
	const [imp, src, ren] = [median(t.import), median(t.source), median(t.log)];
	const ratio = imp / ren;
	const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
	console.log(
		`${name} (${mb} MB), processes: import ${imp.toFixed(0)} ms; render of the same source ${src.toFixed(0)} ms (${(imp / src).toFixed(2)}×); render of the log it wrote ${ren.toFixed(0)} ms (${ratio.toFixed(2)}×, target ≤ ${TARGET}×: ${ratio <= TARGET ? "ok" : "MISSED"})`,
	);
}

async function folder(dir, count) {
	const src = join(dir, "folder");
	// The machine's ceiling: the same files in two halves, imported by two one-job processes at once.
	const halves = [join(dir, "half-0"), join(dir, "half-1")];
	for (const d of [src, ...halves]) mkdirSync(d);
	for (let k = 0; k < count; k++) {
		const text = k % 2 ? claudeTranscript(4) : codexRollout(4);
		writeFileSync(join(src, `s${k}.jsonl`), text);
		writeFileSync(join(halves[k % 2], `s${k}.jsonl`), text);
	}
	const args = (from, jobs, out) => [
		CLI,
		"import",
		from,
		"--out",
		out,
		"--quiet",
		"--jobs",
		String(jobs),
	];
	const run = (jobs) => {
		const out = join(dir, `out-${jobs}`);
		const s = process.hrtime.bigint();
		const r = spawnSync(process.execPath, args(src, jobs, out), { encoding: "utf8" });
		const took = Number(process.hrtime.bigint() - s) / 1e6;
		rmSync(out, { recursive: true, force: true });
		if (r.status !== 0) throw new Error(r.stderr);
		return took;
	};
	const cores = availableParallelism();
	const one = [];
	const all = [];
	const two = [];
	for (let r = 0; r < 3; r++) {
		one.push(run(1));
		all.push(run(cores));
		const outs = halves.map((_, h) => join(dir, `out-half-${h}`));
		two.push(await concurrently(halves.map((h, k) => args(h, 1, outs[k]))));
		for (const o of outs) rmSync(o, { recursive: true, force: true });
	}
	console.log(
		`folder of ${count} sessions: --jobs 1 ${median(one).toFixed(0)} ms, --jobs ${cores} (all cores) ${median(all).toFixed(0)} ms → ${(median(one) / median(all)).toFixed(2)}× faster; this machine's ceiling, two one-job processes on half each at once: ${median(two).toFixed(0)} ms (${(median(one) / median(two)).toFixed(2)}×)`,
	);
}

const dir = mkdtempSync(join(tmpdir(), "theway-bench-import-"));
try {
	single(dir, "claude-code-2000-turns", claudeTranscript(2000), 5);
	single(dir, "codex-2000-turns", codexRollout(2000), 5);
	await folder(dir, 1000);
} finally {
	rmSync(dir, { recursive: true, force: true });
}

/**
 * Synthetic version-3 session logs for the benchmark, written deterministically
 * (seeded PRNG) to `bench/out/` and cached there by shape, size and generator
 * version, so repeated runs reuse the files.
 *
 * The entries mimic a pi coding-agent session: turns of user message →
 * assistant toolCall (sometimes with thinking) → toolResult (300–1500 chars of
 * text) → … → assistant text, with the usage blocks and ids pi writes, for an
 * average line of ~600 bytes (a 100k-entry log is ~60 MB). Files are written
 * in ~1 MB chunks: a 1M-entry log (~600 MB) is never one string.
 *
 * Shapes (each `(entries, options) → file path`):
 *   linear     one branch, no compaction;
 *   compacted  a `compaction` every ~10% of the log (each keeping ~1k entries),
 *              the latest one near the end (so the context is the last ~1k
 *              entries), a few abandoned branches and a `compact_context`.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "../dist/text/prng.js";

/** Bump to invalidate the cached files when the generator changes. */
const GENERATOR_VERSION = 1;
export const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), "out");
const CHUNK_BYTES = 1 << 20;
const START_MS = Date.UTC(2026, 0, 1);

export const TOOLS = [
	"read",
	"write",
	"edit",
	"ls",
	"find",
	"git",
	"bash",
	"grep",
	"outline",
	"session_tool_result",
	"session_tool_result_grep",
	"session_graph_list",
	"session_graph_read",
	"session_graph_status",
	"session_graph_attach",
	"dag_plan",
	"dag_run",
	"subagent_spawn",
	"subagent_wait",
	"web_fetch",
];
export const MEMORY =
	"The project is a TypeScript monorepo built with tsc and tested with vitest. " +
	"Prefer small pure functions and explicit error types; never swallow an error. " +
	"The user reviews every migration by hand, so keep migrations reversible and name " +
	"them by date. Run `npm test` before claiming a task is done; lint with biome.";

const WORDS = (
	"the of and to in is for that with on as function const return import from export " +
	"await async if else type interface string number boolean null undefined error file " +
	"path line entry session context template render parse value result options config " +
	"test expect describe it should branch leaf compaction summary message tool call"
).split(" ");

/** A pool of code-like text (words, punctuation, newlines, quotes) to slice from. */
function textPool(random, size) {
	const parts = [];
	let length = 0;
	while (length < size) {
		const r = random();
		const word = WORDS[Math.floor(random() * WORDS.length)];
		const sep = r < 0.08 ? "\n" : r < 0.11 ? '("' : r < 0.14 ? '");' : r < 0.17 ? "\t" : " ";
		parts.push(word, sep);
		length += word.length + sep.length;
	}
	return parts.join("");
}

/** Builds the entries of one session, in file order, with a seeded PRNG. */
class SessionWriter {
	constructor(seed) {
		this.random = mulberry32(seed);
		this.pool = textPool(this.random, 1 << 16);
		this.count = 0;
		/** Ids of the active branch, root first (entries abandoned by a branch are popped). */
		this.branch = [];
	}

	int(min, max) {
		return min + Math.floor(this.random() * (max - min + 1));
	}

	text(min, max) {
		const length = this.int(min, max);
		const start = this.int(0, this.pool.length - length - 1);
		return this.pool.slice(start, start + length);
	}

	token(length) {
		let out = "";
		while (out.length < length) out += Math.floor(this.random() * 2 ** 31).toString(36);
		return out.slice(0, length);
	}

	/** A new entry on the active branch: unique 8-hex id (a bijection of the counter). */
	entry(type, fields) {
		const n = this.count++;
		const id = (Math.imul(n + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, "0");
		const parentId = this.branch.at(-1) ?? null;
		const timestamp = new Date(START_MS + n * 1500).toISOString();
		this.branch.push(id);
		return { type, id, parentId, timestamp, ...fields };
	}

	message(message) {
		return this.entry("message", {
			message: { ...message, timestamp: START_MS + this.count * 1500 },
		});
	}

	user() {
		return this.message({ role: "user", content: [{ type: "text", text: this.text(20, 160) }] });
	}

	assistant(content, stopReason) {
		const input = this.int(2000, 90000);
		const output = this.int(20, 900);
		return this.message({
			role: "assistant",
			content,
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-opus-4-5",
			usage: {
				input,
				output,
				cacheRead: this.int(0, input),
				cacheWrite: this.int(0, 4000),
				totalTokens: input + output,
				cost: { total: Math.round(input * 5 + output * 25) / 1e6 },
			},
			stopReason,
		});
	}

	toolCall() {
		const id = `toolu_${this.token(24)}`;
		const name = TOOLS[this.int(0, 9)];
		const content = [];
		if (this.random() < 0.2) content.push({ type: "thinking", thinking: this.text(40, 200) });
		content.push({ type: "toolCall", id, name, arguments: { path: `src/${this.token(8)}.ts` } });
		return { entry: this.assistant(content, "toolUse"), id, name };
	}

	toolResult(call) {
		return this.message({
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [{ type: "text", text: this.text(300, 1500) }],
			isError: this.random() < 0.03,
		});
	}

	/** One turn: user → (toolCall → toolResult) × 1–3 → assistant text. */
	*turn() {
		if (this.random() < 0.15) yield this.entry("thinking_level_change", { thinkingLevel: "high" });
		yield this.user();
		const r = this.random();
		const calls = r < 0.85 ? 1 : r < 0.97 ? 2 : 3;
		for (let i = 0; i < calls; i++) {
			const call = this.toolCall();
			yield call.entry;
			yield this.toolResult(call);
		}
		yield this.assistant([{ type: "text", text: this.text(20, 160) }], "stop");
	}

	/** Abandons the last `depth` branch entries: the next entry hangs off the one before. */
	abandon(depth) {
		this.branch.length -= depth;
	}

	/** The id `back` entries up the active branch (0: the last one). */
	branchId(back) {
		return this.branch[Math.max(0, this.branch.length - 1 - back)];
	}
}

function compactContextSummary(w) {
	return [
		`goal: ${w.text(80, 200)}`,
		`completed work: ${w.text(150, 400)}`,
		`key decisions: ${w.text(100, 300)}`,
		`next steps: ${w.text(80, 200)}`,
		`critical context: ${w.text(100, 300)}`,
	].join("\n");
}

/**
 * The entries of a session of `entries` entries (header excluded), in order.
 * `plan(w, i)` may return an extra entry to put at position `i`, or a number
 * of branch entries to abandon before it.
 */
function* session(entries, seed, plan) {
	const w = new SessionWriter(seed);
	yield {
		type: "session",
		version: 3,
		id: `bench-${seed}`,
		timestamp: new Date(START_MS).toISOString(),
		cwd: "/home/user/project",
	};
	yield w.entry("model_change", { provider: "anthropic", modelId: "claude-opus-4-5" });
	yield w.entry("custom", {
		customType: "session_metadata",
		data: { tools: TOOLS, memory: MEMORY },
	});
	let turn = w.turn();
	while (w.count < entries) {
		const planned = plan?.(w, w.count);
		if (typeof planned === "object") {
			yield planned;
			continue;
		}
		if (typeof planned === "number") {
			w.abandon(planned);
			turn = w.turn();
		}
		let next = turn.next();
		if (next.done) {
			turn = w.turn();
			next = turn.next();
		}
		yield next.value;
	}
}

/** The compacted shape's plan: compactions, abandoned branches, one compact_context. */
function compactedPlan(entries) {
	const compactions = new Set();
	for (let k = 1; k < 10; k++) compactions.add(Math.floor((entries * k) / 10));
	compactions.add(entries - Math.min(200, Math.floor(entries / 20)));
	const keep = Math.min(1000, Math.floor(entries / 20));
	const branches = new Set([0.05, 0.25, 0.45, 0.65, 0.85].map((f) => Math.floor(entries * f)));
	const collapseAt = entries - Math.min(100, Math.floor(entries / 40));
	return (w, i) => {
		if (compactions.has(i)) {
			return w.entry("compaction", {
				summary: `goal: ${w.text(200, 800)}\ncompleted work: ${w.text(200, 800)}`,
				firstKeptEntryId: w.branchId(keep),
				tokensBefore: w.int(100000, 180000),
			});
		}
		if (i === collapseAt) {
			return w.entry("custom", {
				customType: "compact_context",
				data: { summary: compactContextSummary(w) },
			});
		}
		return branches.has(i) ? w.int(3, 6) : undefined;
	};
}

/** Writes the lines of `rows` to `path` (via a temp file) in ~1 MB chunks. */
function writeLines(path, rows) {
	const tmp = `${path}.tmp`;
	const fd = openSync(tmp, "w");
	let parts = [];
	let size = 0;
	try {
		for (const row of rows) {
			const line = `${JSON.stringify(row)}\n`;
			parts.push(line);
			size += line.length;
			if (size >= CHUNK_BYTES) {
				writeSync(fd, parts.join(""));
				parts = [];
				size = 0;
			}
		}
		if (parts.length > 0) writeSync(fd, parts.join(""));
	} finally {
		closeSync(fd);
	}
	renameSync(tmp, path);
}

/** The cached file of `shape` at `entries` entries, generated on first use. */
function cached(shape, entries, options, make) {
	const dir = options.dir ?? OUT_DIR;
	mkdirSync(dir, { recursive: true });
	const seed = options.seed === undefined ? "" : `-s${options.seed}`;
	const path = join(dir, `${shape}-${entries}${seed}.v${GENERATOR_VERSION}.jsonl`);
	if (!existsSync(path)) {
		options.onGenerate?.(path);
		writeLines(path, make());
	}
	return path;
}

/**
 * A linear log of `entries` entries: one branch, no compaction.
 * @param {number} entries
 * @param {{dir?: string, seed?: number, onGenerate?: (path: string) => void}} [options]
 * @returns {string} the file's path
 */
export function linear(entries, options = {}) {
	return cached("linear", entries, options, () => session(entries, options.seed ?? 1));
}

/**
 * A compacted log of `entries` entries (see the file comment).
 * @param {number} entries
 * @param {{dir?: string, seed?: number, onGenerate?: (path: string) => void}} [options]
 * @returns {string} the file's path
 */
export function compacted(entries, options = {}) {
	const plan = compactedPlan(entries);
	return cached("compacted", entries, options, () => session(entries, options.seed ?? 2, plan));
}

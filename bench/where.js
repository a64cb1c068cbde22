/**
 * Where a command's time goes, measured: the command is run once under
 * `node --cpu-prof`, and every sample of its CPU profile is given to the
 * first stage its call stack names, from the innermost frame out (a
 * sample in the tokenizer called while converting counts as counting).
 * Used by bench/ccusage.js to say what the gap to ccusage is made of.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The stages, each by the function names that mark it (the bundles keep
 * the source's names), most specific first; a sample in none is `other`
 * (Node's own start, the command line, small work everywhere).
 */
const STAGES = [
	["garbage collection", ["(garbage collector)"]],
	[
		"loading modules and tables",
		[
			"wrapSafe",
			"compileForInternalLoader",
			"Module._load",
			"loadSource",
			"cacheFor",
			"readRanksTable",
			"readRanks",
			"loadTokenizerSync",
			"ready",
		],
	],
	["counting tokens", ["countInPieces", "bpeCounter", "asciiPiece", "merge", "rawRank"]],
	["pricing", ["costOf", "billOf", "knows", "priceAt", "calcPrice"]],
	[
		"reading and converting the files",
		["SessionWalk", "readSync", "readForeign", "importSession", "runImportJob"],
	],
	[
		"walking the sessions (projection, system prompt, stubs)",
		["walk", "grow", "project", "renderSystemPrompt", "counts"],
	],
	["writing the output", ["printJson", "writeJson", "logBytes", "writeFileSync"]],
];

/** The share of each stage in one run of `node args…` (ms of CPU samples, by stage, and the total). */
export function whereTimeGoes(args) {
	const dir = mkdtempSync(join(tmpdir(), "theway-context-profile-"));
	try {
		const run = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, ...args], {
			stdio: ["ignore", "ignore", "pipe"],
			maxBuffer: 64 * 1024 * 1024,
		});
		if (run.status !== 0 && run.status !== 1)
			throw new Error(`exited ${run.status}: ${run.stderr}`);
		const ms = new Map(STAGES.map(([name]) => [name, 0]));
		ms.set("other", 0);
		let total = 0;
		// A worker thread writes a profile of its own: every profile of the run is summed.
		for (const file of readdirSync(dir)) {
			const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
			for (const [stage, t] of stagesOf(profile)) {
				ms.set(stage, (ms.get(stage) ?? 0) + t);
				total += t;
			}
		}
		return { ms, total };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Ms of a profile's samples by stage. */
function stagesOf(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const self = new Map();
	for (let i = 0; i < profile.samples.length; i++) {
		const id = profile.samples[i];
		self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
	}
	const out = new Map();
	for (const [id, us] of self) {
		const stage = stageOf(id, byId, parent);
		out.set(stage, (out.get(stage) ?? 0) + us / 1000);
	}
	return out;
}

/** Node's own functions that mark a stage (any other of Node's frames is passed over: its `readSync` reads modules too). */
const NODE_MARKS = new Set([
	"(garbage collector)",
	"wrapSafe",
	"compileForInternalLoader",
	"Module._load",
	"loadSource",
]);

function stageOf(id, byId, parent) {
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const { functionName: name, url } = byId.get(at).callFrame;
		if ((url.startsWith("node:") || url === "") && !NODE_MARKS.has(name)) continue;
		for (const [stage, marks] of STAGES) if (marks.includes(name)) return stage;
	}
	return "other";
}
